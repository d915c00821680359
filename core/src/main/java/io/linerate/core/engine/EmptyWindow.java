package io.linerate.core.engine;

import java.util.Locale;

/**
 * Why a measured window without data makes a result invalid, and what to change. A window that
 * moved nothing has no throughput worth reporting, and its UDP loss and jitter do not exist: a
 * run that says 0 bit/s, 0 % loss and 0 ms jitter there would pass for a perfect one.
 *
 * <p>A paced sender's first message of the window leaves at the window's opening (its schedule
 * starts there), so a window without traffic is one shorter than the sender took to notice it
 * had opened, or one in which the sender was stalled.
 */
final class EmptyWindow {
    private EmptyWindow() {}

    /**
     * @param windowNanos length of the window, greater than 0
     * @param bytesSent payload bytes the sender wrote in the window
     * @return the reason for a TCP window in which no payload byte arrived
     */
    static String tcp(long windowNanos, long bytesSent) {
        return String.format(Locale.ROOT, "no payload byte arrived in the measured window of %s (%d sent in it): "
                + "lengthen the duration", length(windowNanos), bytesSent);
    }

    /**
     * @param windowNanos length of the window, greater than 0
     * @param datagramsSent datagrams the sender numbered in the window
     * @return the reason for a UDP window none of whose datagrams arrived
     */
    static String udp(long windowNanos, long datagramsSent) {
        if (datagramsSent > 0) {
            return String.format(Locale.ROOT, "none of the %d datagrams sent in the measured window of %s arrived",
                    datagramsSent, length(windowNanos));
        }
        return "no datagram was sent in the measured window of " + length(windowNanos) + ": lengthen the duration";
    }

    private static String length(long nanos) {
        return nanos >= 1_000_000_000L ? String.format(Locale.ROOT, "%.3f s", nanos / 1e9)
                : String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
