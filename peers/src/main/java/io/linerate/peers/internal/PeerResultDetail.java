package io.linerate.peers.internal;

import io.linerate.core.TransferSpec;
import io.linerate.core.sink.JsonObject;

/** The fields that open the JSON detail of a stream against an iperf3 or iperf 2 server. */
public final class PeerResultDetail {
    private PeerResultDetail() {
    }

    /**
     * @param peerProtocol {@code iperf3} or {@code iperf2}
     * @param server the server as {@code host:port}
     * @param marker the stream's marker, such as {@code udp4}
     * @return {@code peer_protocol}, {@code server}, {@code marker}, {@code protocol},
     *     {@code family} (4 or 6), {@code payload} (bytes) and {@code rate_bps} (bit/s, 0 = unlimited)
     */
    public static JsonObject head(String peerProtocol, String server, String marker, TransferSpec spec) {
        return JsonObject.create()
                .put("peer_protocol", peerProtocol)
                .put("server", server)
                .put("marker", marker)
                .put("protocol", spec.protocol().label())
                .put("family", Integer.parseInt(spec.family().label()))
                .put("payload", spec.payloadBytes())
                .put("rate_bps", spec.rateBitsPerSecond());
    }
}
