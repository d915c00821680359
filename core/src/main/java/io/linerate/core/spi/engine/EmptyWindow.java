package io.linerate.core.spi.engine;

import java.util.Locale;

/**
 * Why a measured window without data makes a result invalid, and what to change. A window that
 * moved nothing has no throughput worth reporting, and its UDP loss and jitter do not exist: a
 * run that says 0 bit/s, 0 % loss and 0 ms jitter there would pass for a perfect one.
 *
 * <p>A paced sender's schedule starts at the window's opening and a message leaves once its last
 * byte is due, so a paced window shorter than one message's time ({@code payload × 8 / rate})
 * carries nothing; otherwise a window without traffic is one in which the sender was stalled.
 */
public final class EmptyWindow {
    private EmptyWindow() {}

    /**
     * @param windowNanos length of the window, greater than 0
     * @param bytesSent payload bytes the sender wrote in the window
     * @param payloadBytes bytes per message
     * @param rateBitsPerSecond the sender's target, 0 for unlimited
     * @return the reason for a TCP window in which no payload byte arrived
     */
    static String tcp(long windowNanos, long bytesSent, int payloadBytes, long rateBitsPerSecond) {
        return String.format(Locale.ROOT, "no payload byte arrived in the measured window of %s (%d sent in it): ",
                length(windowNanos), bytesSent) + advice(payloadBytes, rateBitsPerSecond);
    }

    /**
     * @param windowNanos length of the window, greater than 0
     * @param datagramsSent datagrams the sender numbered in the window
     * @param payloadBytes bytes per datagram
     * @param rateBitsPerSecond the sender's target, 0 for unlimited
     * @return the reason for a UDP window none of whose datagrams arrived
     */
    public static String udp(long windowNanos, long datagramsSent, int payloadBytes, long rateBitsPerSecond) {
        if (datagramsSent > 0) {
            return String.format(Locale.ROOT, "none of the %d datagrams sent in the measured window of %s arrived",
                    datagramsSent, length(windowNanos));
        }
        return "no datagram was sent in the measured window of " + length(windowNanos) + ": "
                + advice(payloadBytes, rateBitsPerSecond);
    }

    /** @return what to change; for a paced sender, how long one message takes at its rate */
    private static String advice(int payloadBytes, long rateBitsPerSecond) {
        if (rateBitsPerSecond <= 0) {
            return "lengthen the duration";
        }
        return String.format(Locale.ROOT, "at %d bit/s one %d-byte message leaves every %s, so lengthen the duration"
                + " or raise the rate", rateBitsPerSecond, payloadBytes, length(Math.round(payloadBytes * 8e9 / rateBitsPerSecond)));
    }

    private static String length(long nanos) {
        return nanos >= 1_000_000_000L ? String.format(Locale.ROOT, "%.3f s", nanos / 1e9)
                : String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
