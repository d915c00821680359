package io.linerate.core.latency;

import io.linerate.core.TcpStats;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.ResultJson;
import java.util.Objects;
import java.util.Optional;

/**
 * The kernel's {@code TCP_INFO} (Linux {@code <linux/tcp.h>} {@code struct tcp_info}, tcp(7)) of
 * both ends of a TCP ping-pong or request/response run, read once the run has ended: the client's
 * socket or sockets and the server's (the echo server's, or the request/response server's), each
 * as {@link TcpStats} or the reason it could not be read. Only TCP runs carry one: a UDP, Unix or
 * pipe ping-pong has no {@code TCP_INFO} at all, and its result holds none.
 *
 * <p>What "the window" of {@link TcpStats#windowRetransmits()} is depends on the run and the end:
 * for a ping-pong in this JVM, the sum over the sizes of each size's measured part (the warm-ups
 * left out); for request/response in this JVM, the measured window; for a peer agent's end, which
 * does not see where the client's measured parts lie, its connection's life (window = total).
 * Each end's {@link End#source()} says which applies.
 *
 * @param client the client's end
 * @param server the server's end
 */
public record LatencyTcpInfo(End client, End server) {

    /** @throws NullPointerException when an end is null */
    public LatencyTcpInfo {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(server, "server");
    }

    /**
     * One end's figures, or why there are none; exactly one of the two.
     *
     * @param source which socket or sockets the figures come from and what their window is, for
     *     people, such as {@code TCP_INFO of the client's socket}; written as the JSON's {@code source}
     * @param stats the figures; empty when {@code unavailable} says why
     * @param unavailable why the figures could not be read, such as no TCP_INFO source on the class
     *     path; empty when there are figures
     */
    public record End(String source, Optional<TcpStats> stats, String unavailable) {
        /** @throws IllegalArgumentException when there are both figures and a reason, or neither */
        public End {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(stats, "stats");
            Objects.requireNonNull(unavailable, "unavailable");
            if (stats.isPresent() == !unavailable.isBlank()) {
                throw new IllegalArgumentException("an end's TCP_INFO has figures or a reason they are unavailable, "
                        + "exactly one; got " + (stats.isPresent() ? "both ('" + unavailable + "')" : "neither"));
            }
        }

        /** @return an end whose figures were read from {@code source} */
        public static End read(String source, TcpStats stats) {
            return new End(source, Optional.of(stats), "");
        }

        /** @return an end whose figures could not be read, saying why */
        public static End unavailable(String source, String why) {
            return new End(source, Optional.empty(), why == null || why.isBlank() ? "unknown" : why);
        }
    }

    /**
     * Puts both ends into a result's JSON under the names of a stream's ({@link ResultJson#transfer}):
     * {@code tcp_info}, an object with {@code client} and {@code server} where their figures were read
     * ({@link ResultJson#tcpInfo(TcpStats, String)}), and {@code tcp_info_unavailable}, an object with
     * {@code client} and {@code server} saying why where they were not. Each end is in exactly one.
     *
     * @param j the result's detail object
     * @return {@code j}
     */
    public JsonObject putJson(JsonObject j) {
        JsonObject read = JsonObject.create();
        JsonObject why = JsonObject.create();
        put(read, why, "client", client);
        put(read, why, "server", server);
        if (client.stats().isPresent() || server.stats().isPresent()) {
            j.put("tcp_info", read);
        }
        if (client.stats().isEmpty() || server.stats().isEmpty()) {
            j.put("tcp_info_unavailable", why);
        }
        return j;
    }

    private static void put(JsonObject read, JsonObject why, String name, End e) {
        if (e.stats().isPresent()) {
            read.put(name, ResultJson.tcpInfo(e.stats().get(), e.source()));
        } else {
            why.put(name, e.unavailable());
        }
    }
}
