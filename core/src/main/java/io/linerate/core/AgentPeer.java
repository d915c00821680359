package io.linerate.core;

import java.util.Objects;
import java.util.Optional;

/**
 * A far end on linerate's agent ({@code linerate serve}) at {@code address}: this host runs one
 * end, the agent the other, and the result holds both ends' counts. A stream uses every component;
 * a ping-pong, a request/response run or a raw-frame run uses the address and the secret alone, and
 * leaves the direction forward and the streams 1, which those specs check. Build it with
 * {@link #builder(Endpoint.Remote)}.
 *
 * @param address the agent's control address
 * @param secret the agent's shared secret, when it asks for one; never printed (see {@link PeerSecret})
 * @param direction who sends: forward, reverse, or both at once (two sessions on the agent, one
 *     stream each way)
 * @param streams data streams of the one session, {@value #MIN_STREAMS}..{@value #MAX_STREAMS}
 *     (iperf3's {@code -P}); 1 when {@code direction} is {@link PeerDirection#BOTH}
 */
public record AgentPeer(Endpoint.Remote address, Optional<PeerSecret> secret, PeerDirection direction, int streams)
        implements Endpoint {
    /** The fewest streams. */
    public static final int MIN_STREAMS = 1;
    /** The most streams of one session, iperf3's limit for {@code -P}. */
    public static final int MAX_STREAMS = 128;

    /**
     * @throws IllegalArgumentException for streams outside 1..128, or more than one stream both ways, naming the value
     */
    public AgentPeer {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(direction, "direction");
        if (streams < MIN_STREAMS || streams > MAX_STREAMS) {
            throw new IllegalArgumentException("parallel streams " + streams + " is out of range; allowed: "
                    + MIN_STREAMS + ".." + MAX_STREAMS);
        }
        if (direction == PeerDirection.BOTH && streams != 1) {
            throw new IllegalArgumentException("parallel streams " + streams + " both ways at once is out of range; "
                    + "allowed: 1 (the agent runs one stream each way)");
        }
    }

    /**
     * Checks the endpoint of a spec that is no stream: an {@link AgentPeer} there names the agent and
     * its secret only, as the spec itself says who sends.
     *
     * @param endpoint the spec's endpoint
     * @param pattern the spec's pattern, for the message
     * @throws IllegalArgumentException naming the value when {@code endpoint} is an {@link AgentPeer}
     *     whose direction is not forward or whose streams are not 1
     */
    static void checkAddressAndSecretOnly(Endpoint endpoint, Pattern pattern) {
        if (endpoint instanceof AgentPeer a && (a.direction != PeerDirection.FORWARD || a.streams != 1)) {
            throw new IllegalArgumentException("linerate's agent at " + a.address + " with direction "
                    + a.direction.name().toLowerCase(java.util.Locale.ROOT) + " and " + a.streams + " streams: a "
                    + pattern.label() + " run takes the agent's address and secret only; allowed: direction forward, 1 stream");
        }
    }

    /** @return a builder of a forward stream of one, without a secret, to the agent at {@code address} */
    public static Builder builder(Endpoint.Remote address) {
        return new Builder(address);
    }

    @Override
    public Optional<Endpoint.Remote> remoteAddress() {
        return Optional.of(address);
    }

    /** @return the agent's address, {@code host:port}: never the secret */
    @Override
    public String toString() {
        return address.toString();
    }

    /** Mutable builder; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private final Endpoint.Remote address;
        private Optional<PeerSecret> secret = Optional.empty();
        private PeerDirection direction = PeerDirection.FORWARD;
        private int streams = 1;

        private Builder(Endpoint.Remote address) {
            this.address = Objects.requireNonNull(address, "address");
        }

        /** @param v the agent's secret, or null for none */
        public Builder secret(PeerSecret v) {
            this.secret = Optional.ofNullable(v);
            return this;
        }

        public Builder direction(PeerDirection v) {
            this.direction = Objects.requireNonNull(v, "direction");
            return this;
        }

        /** @param v data streams, 1..128; range checked in {@link #build()} */
        public Builder streams(int v) {
            this.streams = v;
            return this;
        }

        /** @return the validated peer; see {@link AgentPeer#AgentPeer} */
        public AgentPeer build() {
            return new AgentPeer(address, secret, direction, streams);
        }
    }
}
