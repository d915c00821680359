package io.linerate.nio.agent;

import java.util.Objects;
import java.util.Optional;

/**
 * How a client runs a stream against a peer agent.
 *
 * @param secret the agent's shared secret, when it asks for one
 * @param reverse false: this host sends and the agent receives; true: the agent sends
 */
public record RemoteOptions(Optional<byte[]> secret, boolean reverse) {
    /** @throws NullPointerException for a null secret (use {@link Optional#empty()}) */
    public RemoteOptions {
        Objects.requireNonNull(secret, "secret");
    }

    /** @return forward, without a secret */
    public static RemoteOptions defaults() {
        return new RemoteOptions(Optional.empty(), false);
    }
}
