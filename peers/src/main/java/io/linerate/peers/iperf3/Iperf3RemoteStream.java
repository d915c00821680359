package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One stream's entry in the results an iperf3 server sent at EXCHANGE_RESULTS, as it counted them.
 *
 * @param id iperf3's stream id (1, then 3, 4, ...: iperf3 skips 2)
 * @param bytes bytes the server received (linerate sent) or sent (reverse)
 * @param packets UDP: the highest sequence number the server received, or datagrams it sent (reverse); TCP: 0
 * @param errors UDP: datagrams the server counts lost (gaps in the sequence, less late arrivals;
 *     iperf3 does not count loss at the tail); TCP: 0
 * @param jitterSeconds UDP receiving server: its RFC 1889 jitter estimate, s; otherwise 0
 * @param retransmits TCP sending server: its retransmits, -1 when it does not count them
 * @param seconds the stream's duration as the server timed it (end_time - start_time), s
 */
public record Iperf3RemoteStream(int id, long bytes, long packets, long errors, double jitterSeconds, long retransmits,
                                 double seconds) {
    /**
     * @param results the results object an iperf3 server sent
     * @return its {@code streams}, in order
     * @throws Iperf3Exception when there is no {@code streams} array, or an entry lacks a numeric
     *     {@code id} or {@code bytes}
     */
    static List<Iperf3RemoteStream> fromResults(JsonNode results) throws Iperf3Exception {
        JsonNode arr = results.get("streams");
        if (arr == null || !arr.isArray()) {
            throw new Iperf3Exception("results without a streams array");
        }
        List<Iperf3RemoteStream> out = new ArrayList<>();
        for (JsonNode s : arr) {
            if (!s.isObject() || !s.path("id").canConvertToInt() || !s.path("bytes").isNumber()) {
                throw new Iperf3Exception("a stream result without id or bytes: " + s);
            }
            double seconds = s.path("end_time").asDouble(0) - s.path("start_time").asDouble(0);
            out.add(new Iperf3RemoteStream(s.get("id").asInt(), s.get("bytes").asLong(), s.path("packets").asLong(0),
                    s.path("errors").asLong(0), s.path("jitter").asDouble(0), s.path("retransmits").asLong(-1), seconds));
        }
        return out;
    }
}
