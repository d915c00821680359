package io.linerate.examples.cli;

import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The text output's {@code # tcp_info (END): ...} lines: a socket's {@code TCP_INFO} figures as a
 * stream's sender line gives them (iperf3's {@code Retr} and {@code Cwnd}, then the RTT and the
 * rates), or why they are unavailable.
 */
final class TcpInfoText {
    private TcpInfoText() {}

    /**
     * @param end whose socket, such as {@code sender}, {@code client} or {@code server}
     * @param t the figures
     * @return {@code # tcp_info (END): retr W in the window, T in total; cwnd C B; rtt R us, rttvar V us;
     *     pacing P; delivery D}, the rates in Mbit/s or {@code not given}
     */
    static String line(String end, TcpStats t) {
        return String.format(Locale.ROOT, "# tcp_info (%s): retr %d in the window, %d in total; cwnd %d B; "
                        + "rtt %d us, rttvar %d us; pacing %s; delivery %s", end, t.windowRetransmits(),
                t.totalRetransmits(), t.cwndBytes(), t.rttMicros(), t.rttVarMicros(), rate(t.pacingRate()),
                rate(t.deliveryRate()));
    }

    /** @return {@code # tcp_info (END): unavailable: WHY} */
    static String unavailable(String end, String why) {
        return "# tcp_info (" + end + "): unavailable: " + why;
    }

    /** Prints the client's line, then the server's. */
    static void print(PrintWriter out, LatencyTcpInfo info) {
        print(out, "client", info.client());
        print(out, "server", info.server());
    }

    private static void print(PrintWriter out, String name, LatencyTcpInfo.End e) {
        out.println(e.stats().map(t -> line(name, t)).orElseGet(() -> unavailable(name, e.unavailable())));
    }

    /** A TCP_INFO rate in bytes/s as bit/s, or why it is absent. */
    private static String rate(long bytesPerSecond) {
        return bytesPerSecond < 0 ? "not given" : String.format(Locale.ROOT, "%.2f Mbit/s", bytesPerSecond * 8 / 1e6);
    }
}
