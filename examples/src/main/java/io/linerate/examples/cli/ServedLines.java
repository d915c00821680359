package io.linerate.examples.cli;

import io.linerate.core.IntervalSample;
import io.linerate.core.sink.TransferFormat;
import io.linerate.peers.server.ServedCounts;
import io.linerate.peers.server.ServedInterval;
import io.linerate.peers.server.ServedStart;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code serve}'s text output of the tests it serves, as {@code iperf3 -s} prints them: a line when
 * a test starts, an interval line per reporting interval
 * ({@code [  3]  1.00- 2.00 sec  1589248 Bytes  12.71 Mbits/sec}, for UDP data received followed by
 * jitter and lost/total datagrams), and summary lines at its end, each marked {@code receiver} or
 * {@code sender} as iperf3's are (a UDP test received and cut short, whose client never said what
 * it sent, gives its datagrams received and {@code loss unknown} instead); a linerate ping-pong or request/response test ends with one line
 * of the agent's own counts and how it ended
 * ({@code [  4]  2.31 sec  5120 echoes  163840 bytes echoed  done}). The number in brackets is the test's on this server, followed by
 * the stream's where a linerate client runs several. Bytes are exact, rates decimal
 * ({@link TransferFormat#intervalLine}). Lines of several tests at once interleave whole.
 */
final class ServedLines implements ServedTestListener {
    private final PrintWriter out;

    ServedLines(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void onStart(ServedStart s) {
        line(String.format(Locale.ROOT, "[%3d] accepted %s port %d: %s", s.test(), s.client().getAddress().getHostAddress(),
                s.client().getPort(), s.what()));
    }

    @Override
    public void onInterval(ServedInterval i) {
        String tag = i.stream() == 0 ? String.format(Locale.ROOT, "[%3d]", i.test())
                : String.format(Locale.ROOT, "[%3d.%d]", i.test(), i.stream());
        line(tag + " " + TransferFormat.intervalLine(i.sample(), i.udp() && !i.sent()) + (i.sent() ? "  sent" : ""));
    }

    @Override
    public void onEnd(ServedSummary s) {
        IntervalSample whole = new IntervalSample(0, s.nanos(), s.bytes(), s.datagrams(), s.lost(), s.jitterNanos(), false);
        boolean done = ServedSummary.DONE.equals(s.end());
        boolean udpReceived = s.udp() && !s.sent();
        // a test cut short never learnt what the client sent: its loss is unknown, not 0
        String counts = udpReceived && !done ? TransferFormat.intervalLine(whole, false) + "  " + s.datagrams()
                + " datagrams received, loss unknown" : TransferFormat.intervalLine(whole, udpReceived);
        line(String.format(Locale.ROOT, "[%3d] ", s.test()) + counts
                + (s.sent() ? "  sender" : "  receiver")
                + (done ? "" : "  (ended: " + s.end() + ")"));
    }

    @Override
    public void onCounts(ServedCounts s) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "[%3d] %5.2f sec", s.test(), s.nanos() / 1e9));
        s.counts().forEach((name, count) -> b.append("  ").append(count).append(' ').append(name));
        b.append(ServedSummary.DONE.equals(s.end()) ? "  done" : "  (ended: " + s.end() + ")");
        line(b.toString());
    }

        private void line(String text) {
        synchronized (out) {
            out.println(text);
            out.flush();
        }
    }
}
