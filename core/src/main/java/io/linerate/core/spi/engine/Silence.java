package io.linerate.core.spi.engine;

import io.linerate.core.TransferSpec;
import java.util.Locale;

/**
 * When a receiving end of a remote stream gives up on a silent path: nothing arrived for the spec's
 * I/O timeout, plus one message's time at the spec's rate (a paced sender's messages are that far
 * apart, so a slow schedule is not mistaken for silence). Counted from the end's start until the
 * first data, then from the last data. A black-holed path (every packet dropped, as iperf3 issues
 * #1215 and #1858 describe) so ends the receiver within its I/O timeout instead of at the end of its
 * window, and the run fails with what was counted.
 */
final class Silence {
    private final long limitNanos;
    private final long ioTimeoutMillis;

    /**
     * @param spec the end's spec: its I/O timeout, rate (bit/s, 0 unlimited) and payload (bytes)
     */
    Silence(TransferSpec spec) {
        long io = spec.ioTimeout().toNanos();
        long rate = spec.rateBitsPerSecond();
        long gap = rate == 0 ? 0 : (long) Math.min(Long.MAX_VALUE / 2.0, spec.payloadBytes() * 8.0 * 1e9 / rate);
        this.limitNanos = io > Long.MAX_VALUE - gap ? Long.MAX_VALUE : io + gap;
        this.ioTimeoutMillis = spec.ioTimeout().toMillis();
    }

    /** @return how long the path may stay silent before the end gives up, ns */
    long limitNanos() {
        return limitNanos;
    }

    /**
     * @param startNanos when the end started
     * @param lastDataNanos when data last arrived, {@link Long#MIN_VALUE} before any
     * @param now a reading of the same clock
     * @return whether the path has been silent past the limit
     */
    boolean over(long startNanos, long lastDataNanos, long now) {
        long since = lastDataNanos == Long.MIN_VALUE ? startNanos : Math.max(startNanos, lastDataNanos);
        return now - since > limitNanos;
    }

    /**
     * @return why the end gave up, naming the silence and what it counted
     */
    String reason(String protocol, long bytes) {
        return String.format(Locale.ROOT, "%s receiver heard nothing for the I/O timeout of %d ms after %d bytes: "
                + "the path is silent", protocol, ioTimeoutMillis, bytes);
    }
}
