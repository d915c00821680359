package io.linerate.peers.agent.client;

import io.linerate.peers.agent.internal.wire.ParallelEnds;
import java.util.Objects;
import java.util.Optional;

/**
 * How a client runs a stream against a peer agent.
 *
 * @param secret the agent's shared secret, when it asks for one
 * @param reverse false: this host sends and the agent receives; true: the agent sends
 * @param streams data streams of the one session, {@value #MIN_STREAMS}..{@value #MAX_STREAMS}
 *     (iperf3's {@code -P}): each has its own data socket and counts, all share the session's
 *     control connection and start together
 */
public record RemoteOptions(Optional<byte[]> secret, boolean reverse, int streams) {
    /** The fewest streams. */
    public static final int MIN_STREAMS = ParallelEnds.MIN_STREAMS;
    /** The most streams of one session, iperf3's limit for {@code -P}. */
    public static final int MAX_STREAMS = ParallelEnds.MAX_STREAMS;

    /**
     * @throws NullPointerException for a null secret (use {@link Optional#empty()})
     * @throws IllegalArgumentException for streams outside 1..128, naming the value
     */
    public RemoteOptions {
        Objects.requireNonNull(secret, "secret");
        if (streams < MIN_STREAMS || streams > MAX_STREAMS) {
            throw new IllegalArgumentException("parallel streams " + streams + " is out of range; allowed: "
                    + MIN_STREAMS + ".." + MAX_STREAMS);
        }
    }

    /** One stream. */
    public RemoteOptions(Optional<byte[]> secret, boolean reverse) {
        this(secret, reverse, 1);
    }

    /** @return forward, without a secret */
    public static RemoteOptions defaults() {
        return new RemoteOptions(Optional.empty(), false);
    }
}
