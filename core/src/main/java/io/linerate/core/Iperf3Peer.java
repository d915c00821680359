package io.linerate.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A stream's far end on an unmodified iperf3 server ({@code iperf3 -s}) at {@code address}: linerate
 * runs iperf3's client side, and the result holds linerate's counts and the server's. Build it with
 * {@link #builder(Endpoint.Remote)}.
 *
 * @param address the server, iperf3's default port being 5201
 * @param direction who sends: forward, reverse (iperf3's {@code -R}) or both at once (its {@code --bidir})
 * @param parallel data streams, 1..{@value #MAX_PARALLEL} (iperf3's {@code -P}; each way for both at once)
 * @param udpCounters64Bit 64-bit UDP sequence numbers (iperf3's {@code --udp-counters-64bit})
 * @param tcpDrain TCP, linerate sending: the wait after the last write before TEST_END, so the
 *     server reads what is in flight; zero for none
 */
public record Iperf3Peer(Endpoint.Remote address, PeerDirection direction, int parallel, boolean udpCounters64Bit,
                         Duration tcpDrain) implements Endpoint {
    /** The most streams, iperf3's limit for {@code -P}. */
    public static final int MAX_PARALLEL = 128;

    /** @throws IllegalArgumentException for parallel outside 1..128 or a negative drain, naming the value */
    public Iperf3Peer {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(tcpDrain, "tcpDrain");
        if (parallel < 1 || parallel > MAX_PARALLEL) {
            throw new IllegalArgumentException("parallel streams " + parallel + " is out of range; allowed: 1.."
                    + MAX_PARALLEL);
        }
        if (tcpDrain.isNegative()) {
            throw new IllegalArgumentException("TCP drain " + Units.text(tcpDrain) + " is out of range; allowed: 0 or more");
        }
    }

    /** @return a builder of a forward test of one stream to the server at {@code address} */
    public static Builder builder(Endpoint.Remote address) {
        return new Builder(address);
    }

    @Override
    public Optional<Endpoint.Remote> remoteAddress() {
        return Optional.of(address);
    }

    /** @return the server's address, {@code host:port} */
    @Override
    public String toString() {
        return address.toString();
    }

    /** Mutable builder; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private final Endpoint.Remote address;
        private PeerDirection direction = PeerDirection.FORWARD;
        private int parallel = 1;
        private boolean udpCounters64Bit;
        private Duration tcpDrain = Duration.ZERO;

        private Builder(Endpoint.Remote address) {
            this.address = Objects.requireNonNull(address, "address");
        }

        public Builder direction(PeerDirection v) {
            this.direction = Objects.requireNonNull(v, "direction");
            return this;
        }

        /** @param v data streams, 1..128; range checked in {@link #build()} */
        public Builder parallel(int v) {
            this.parallel = v;
            return this;
        }

        public Builder udpCounters64Bit(boolean v) {
            this.udpCounters64Bit = v;
            return this;
        }

        /** @param v the drain before TEST_END, zero or more */
        public Builder tcpDrain(Duration v) {
            this.tcpDrain = Objects.requireNonNull(v, "tcpDrain");
            return this;
        }

        /** @return the validated peer; see {@link Iperf3Peer#Iperf3Peer} */
        public Iperf3Peer build() {
            return new Iperf3Peer(address, direction, parallel, udpCounters64Bit, tcpDrain);
        }
    }
}
