package io.linerate.core.engine;

import io.linerate.core.TransferSpec;
import java.util.Locale;

/**
 * Why a measured window without data makes a result invalid, and what to change. A window that
 * moved nothing has no throughput worth reporting, and its UDP loss and jitter do not exist: a
 * run that says 0 bit/s, 0 % loss and 0 ms jitter there would pass for a perfect one.
 */
final class EmptyWindow {
    private EmptyWindow() {}

    /**
     * @param windowNanos length of the window, greater than 0
     * @param bytesSent payload bytes the sender wrote in the window
     * @return the reason for a TCP window in which no payload byte arrived
     */
    static String tcp(TransferSpec spec, long windowNanos, long bytesSent) {
        return String.format(Locale.ROOT, "no payload byte arrived in the measured window of %s (%d sent in it)%s",
                length(windowNanos), bytesSent, advice(spec, windowNanos, "write"));
    }

    /**
     * @param windowNanos length of the window, greater than 0
     * @param datagramsSent datagrams the sender numbered in the window
     * @return the reason for a UDP window none of whose datagrams arrived
     */
    static String udp(TransferSpec spec, long windowNanos, long datagramsSent) {
        if (datagramsSent > 0) {
            return String.format(Locale.ROOT, "none of the %d datagrams sent in the measured window of %s arrived",
                    datagramsSent, length(windowNanos));
        }
        return "no datagram was sent in the measured window of " + length(windowNanos)
                + advice(spec, windowNanos, "datagram");
    }

    /** What to change: at a paced rate, how often one message leaves; otherwise a longer window. */
    private static String advice(TransferSpec spec, long windowNanos, String message) {
        long rate = spec.rateBitsPerSecond();
        if (rate > 0) {
            double every = spec.payloadBytes() * 8.0 * 1e9 / rate;
            if (every >= windowNanos) {
                return String.format(Locale.ROOT, ": at %d bit/s one %d-byte %s leaves every %s, longer than the "
                        + "window; raise the rate or the duration", rate, spec.payloadBytes(), message,
                        length((long) Math.min(every, Long.MAX_VALUE)));
            }
        }
        return ": lengthen the duration";
    }

    private static String length(long nanos) {
        return nanos >= 1_000_000_000L ? String.format(Locale.ROOT, "%.3f s", nanos / 1e9)
                : String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
