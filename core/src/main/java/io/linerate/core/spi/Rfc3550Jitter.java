package io.linerate.core.spi;

/**
 * Interarrival jitter as RFC 3550 section 6.4.1 defines it, in nanoseconds: for consecutive
 * datagrams i and j in arrival order, {@code D(i,j) = (Rj − Ri) − (Sj − Si)} and
 * {@code J += (|D(i,j)| − J) / 16}. The estimate starts on the second datagram (the first only
 * sets the transit time). The send and arrival times may come from different clocks: only
 * differences of the same clock enter D. Single-threaded, allocation-free.
 */
public final class Rfc3550Jitter {
    private boolean started;
    private long previousTransit;
    private double jitter;
    private long samples;

    /**
     * @param sendNanos send time stamped by the sender
     * @param arrivalNanos arrival time read by the receiver
     */
    public void onArrival(long sendNanos, long arrivalNanos) {
        long transit = arrivalNanos - sendNanos;
        if (started) {
            long d = Math.abs(transit - previousTransit);
            jitter += (d - jitter) / 16.0;
            samples++;
        }
        started = true;
        previousTransit = transit;
    }

    /** @return the current estimate in ns; 0 before the second datagram */
    public double nanos() {
        return jitter;
    }

    /** @return how many differences D entered the estimate (arrivals − 1) */
    public long samples() {
        return samples;
    }
}
