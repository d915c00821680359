package io.linerate.core;

import io.linerate.core.latency.LatencyStats;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A request/response run as netperf TCP_RR / TCP_CRR and neper tcp_rr / tcp_crr make it: {@code flows}
 * connections, each sending a request of {@code requestBytes} and waiting for a response of
 * {@code responseBytes}, for {@code duration} after a {@code warmup}. With {@code crr} every
 * transaction opens a new connection (connect, request, response, close). With a {@code rate}
 * above 0 requests are sent open-loop at fixed intervals and latency is measured from each
 * request's scheduled send time.
 *
 * <p>Build one with {@link #builder()}: fourteen components, several of the same type, are easy to
 * swap in a constructor call.
 *
 * @param family IPv4 or IPv6 loopback
 * @param flows connections (threads) at once, 1..{@value #MAX_FLOWS}
 * @param requestBytes request size, 1..16 MiB
 * @param responseBytes response size, 1..16 MiB
 * @param duration measured window, greater than 0
 * @param warmup time before the window, whose transactions are not counted, at least 0
 * @param crr a new connection per transaction
 * @param rate target transactions/s of all flows together; 0 for closed loop
 * @param noDelay TCP_NODELAY on both ends
 * @param timeout bound of every single wait (connect, write, response), greater than 0
 * @param percentile reported beside the median, in (0, 100]
 * @param muxer how every flow and the server wait for their sockets: {@link Muxer#SELECTOR} (the
 *     default), or polling with {@link Muxer#SPIN} or {@link Muxer#BACKOFF}; not
 *     {@link Muxer#BLOCKING}, as one server thread serves every connection
 * @param idle how the polling muxers wait between polls; empty for the muxer's own
 *     ({@link Muxer#defaultIdle()}); only with a polling muxer
 * @param endpoint where the server runs: {@link Endpoint#loopback()} (in this JVM, the default) or
 *     linerate's agent: {@link AgentPeer} (its address and secret; direction forward, 1 stream) or
 *     {@link Endpoint.Remote} (an agent that asks no secret)
 */
public record RrSpec(AddressFamily family, int flows, int requestBytes, int responseBytes, Duration duration,
                     Duration warmup, boolean crr, long rate, boolean noDelay, Duration timeout, double percentile,
                     Muxer muxer, Optional<Idle> idle, Endpoint endpoint) implements MeasurementSpec {
    /** Most flows in one run. */
    public static final int MAX_FLOWS = 1024;
    /** Highest open-loop rate, transactions/s (one request every microsecond). */
    public static final long MAX_RATE = 1_000_000;

    /** @throws IllegalArgumentException naming the value and its allowed range */
    public RrSpec {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(muxer, "muxer");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(endpoint, "endpoint");
        AgentPeer.checkAddressAndSecretOnly(endpoint, Pattern.REQUEST_RESPONSE);
        if (muxer == Muxer.BLOCKING) {
            throw new IllegalArgumentException("muxer blocking is not available for request/response: one server thread "
                    + "serves every connection; allowed: selector, spin, backoff");
        }
        if (idle.isPresent() && !muxer.polls()) {
            throw new IllegalArgumentException("idle strategy " + idle.get().label() + " applies to the polling muxers "
                    + "spin and backoff only, not " + muxer.label());
        }
        if (flows < 1 || flows > MAX_FLOWS) {
            throw new IllegalArgumentException("flows " + flows + " is out of range; allowed: 1.." + MAX_FLOWS);
        }
        int max = PingPongProtocol.MAX_STREAM_MESSAGE_BYTES;
        if (requestBytes < 1 || requestBytes > max) {
            throw new IllegalArgumentException("request size " + requestBytes + " bytes is out of range; allowed: 1.." + max);
        }
        if (responseBytes < 1 || responseBytes > max) {
            throw new IllegalArgumentException("response size " + responseBytes + " bytes is out of range; allowed: 1.." + max);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration " + Units.text(duration) + " is out of range; allowed: > 0");
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warmup " + Units.text(warmup) + " is out of range; allowed: 0 or more");
        }
        if (rate < 0 || rate > MAX_RATE) {
            throw new IllegalArgumentException("rate " + rate + " transactions/s is out of range; allowed: 0 (closed loop).."
                    + MAX_RATE);
        }
        if (timeout.compareTo(java.time.Duration.ofMillis(1)) < 0 || timeout.compareTo(TransferSpec.MAX_IO_TIMEOUT) > 0) {
            throw new IllegalArgumentException("timeout " + Units.text(timeout) + " is out of range; allowed: 1 ms..10 min,"
                    + " as the stream's --io-timeout");
        }
        LatencyStats.checkPercentile(percentile);
    }

    /**
     * @return a builder with the defaults: IPv4, 1 flow, 1-byte request and response, 10 s after 1 s
     *     of warm-up, rr (not crr), closed loop, TCP_NODELAY on, 2 s timeout, p99, selector, loopback
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this spec's values, so that one can be changed and the rest kept */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.family = family;
        b.flows = flows;
        b.requestBytes = requestBytes;
        b.responseBytes = responseBytes;
        b.duration = duration;
        b.warmup = warmup;
        b.crr = crr;
        b.rate = rate;
        b.noDelay = noDelay;
        b.timeout = timeout;
        b.percentile = percentile;
        b.muxer = muxer;
        b.idle = idle;
        b.endpoint = endpoint;
        return b;
    }

    /** Builds an {@link RrSpec}; defaults as in {@link #builder()}. */
    public static final class Builder {
        private AddressFamily family = AddressFamily.IPV4;
        private int flows = 1;
        private int requestBytes = 1;
        private int responseBytes = 1;
        private Duration duration = Duration.ofSeconds(10);
        private Duration warmup = Duration.ofSeconds(1);
        private boolean crr;
        private long rate;
        private boolean noDelay = true;
        private Duration timeout = Duration.ofSeconds(2);
        private double percentile = LatencyStats.DEFAULT_PERCENTILE;
        private Muxer muxer = Muxer.SELECTOR;
        private Optional<Idle> idle = Optional.empty();
        private Endpoint endpoint = Endpoint.loopback();

        private Builder() {}

        /** @param v IPv4 or IPv6 loopback; default IPv4 */
        public Builder family(AddressFamily v) { family = v; return this; }
        /** @param v connections at once, 1..{@value RrSpec#MAX_FLOWS}; default 1 */
        public Builder flows(int v) { flows = v; return this; }
        /** @param v request size in bytes; default 1 */
        public Builder requestBytes(int v) { requestBytes = v; return this; }
        /** @param v response size in bytes; default 1 */
        public Builder responseBytes(int v) { responseBytes = v; return this; }
        /** @param v measured window; default 10 s */
        public Builder duration(Duration v) { duration = v; return this; }
        /** @param v time before the window, not counted; default 1 s */
        public Builder warmup(Duration v) { warmup = v; return this; }
        /** @param v a new connection per transaction (TCP_CRR); default off */
        public Builder crr(boolean v) { crr = v; return this; }
        /** @param v target transactions/s of all flows, 0 for closed loop (the default) */
        public Builder rate(long v) { rate = v; return this; }
        /** @param v TCP_NODELAY on both ends; default on */
        public Builder noDelay(boolean v) { noDelay = v; return this; }
        /** @param v bound of every single wait; default 2 s */
        public Builder timeout(Duration v) { timeout = v; return this; }
        /** @param v percentile beside the median, in (0, 100]; default 99 */
        public Builder percentile(double v) { percentile = v; return this; }
        /** @param v how the flows and the server wait; default selector */
        public Builder muxer(Muxer v) { muxer = v; return this; }
        /** @param v how the polling muxers wait between polls, null for the muxer's own (the default) */
        public Builder idle(Idle v) { idle = Optional.ofNullable(v); return this; }
        /** @param v where the server runs; default {@link Endpoint#loopback()} */
        public Builder endpoint(Endpoint v) { endpoint = v; return this; }

        /** @throws IllegalArgumentException as {@link RrSpec#RrSpec} */
        public RrSpec build() {
            return new RrSpec(family, flows, requestBytes, responseBytes, duration, warmup, crr, rate, noDelay,
                    timeout, percentile, muxer, idle, endpoint);
        }
    }

    /** @return how the flows and the server wait between polls; empty when the muxer does not poll */
    public Optional<Idle> pollingIdle() {
        return muxer.polls() ? idle.or(muxer::defaultIdle) : Optional.empty();
    }

    /** @return {@code tcp_crr} or {@code tcp_rr}, netperf's test names in lower case */
    @Override
    public String testName() {
        return crr ? "tcp_crr" : "tcp_rr";
    }

    /** @return ns between two requests of one flow in open loop: {@code flows · 10^9 / rate}; 0 in closed loop */
    public long flowIntervalNanos() {
        return rate == 0 ? 0 : Math.max(1, flows * 1_000_000_000L / rate);
    }

    /** @return {@link Pattern#REQUEST_RESPONSE} */
    @Override
    public Pattern pattern() {
        return Pattern.REQUEST_RESPONSE;
    }
}
