package io.linerate.examples.cli;

import io.linerate.core.IntervalSample;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferResult;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.sink.TransferFormat;
import io.linerate.peers.agent.client.FarSenderIntervals;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;

/**
 * The text output's {@code # tcp_info (END): ...} lines: a socket's {@code TCP_INFO} figures as
 * iperf3's {@code Retr} and {@code Cwnd}, then the RTT and the rates, or why they are unavailable.
 * For {@code stream}, the sender's end-of-run line below the summary, and where the agent sent, its
 * per-interval figures, which arrive with its counts once the run is over. Interval lines printed
 * live cannot carry them, so they come after the summary as iperf3's {@code --get-server-output}
 * prints its server's interval lines: this host's interval lines again, each with the far sender's
 * {@code Retr} and {@code Cwnd}, commented out ({@code # }) so that no line reads as a second
 * interval. For ping-pong and rr, one line per end ({@code client}, {@code server}).
 */
final class TcpInfoText {
    private TcpInfoText() {}

    /**
     * @param out where to write
     * @param tag the line's tag ({@code [rev] }, {@code [  0] }), or empty
     * @param sender who sent: {@code sender} (this host), or {@code sender, the agent at HOST}
     * @param r the result
     */
    static void end(PrintWriter out, String tag, String sender, TransferResult r) {
        r.tcp().ifPresent(t -> out.println(tag + line(sender, t)));
        if (r.tcp().isEmpty() && !r.tcpUnavailable().isEmpty()) {
            out.println(tag + unavailable(sender, r.tcpUnavailable()));
        }
    }

    /**
     * The far sender's figures per interval, or why there are none; nothing where this host sent.
     *
     * @param out where to write
     * @param tag the lines' tag, or empty
     * @param sender who sent, as in {@link #end}
     * @param r the result, its intervals carrying the far sender's figures where they were joined
     * @param far what became of them
     */
    static void farIntervals(PrintWriter out, String tag, String sender, TransferResult r,
                             Optional<FarSenderIntervals> far) {
        if (far.isEmpty()) {
            return;
        }
        FarSenderIntervals f = far.get();
        if (!f.available()) {
            out.println(tag + "# tcp_info (" + sender + ") per interval: unavailable: " + f.unavailable());
            return;
        }
        out.println(String.format(Locale.ROOT, "%s# tcp_info (%s) per interval, sent with its counts at the end of the "
                + "run, %d of %d joined %s:", tag, sender, f.joined(), f.samples(), FarSenderIntervals.JOIN));
        for (IntervalSample s : r.intervals()) {
            if (s.tcp().isPresent()) {
                out.println(tag + "# " + TransferFormat.intervalLine(s, false));
            }
        }
    }

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
