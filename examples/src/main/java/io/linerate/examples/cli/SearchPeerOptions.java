package io.linerate.examples.cli;

import io.linerate.core.Endpoint;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.SecretFile;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code search}'s options for running each UDP trial through linerate's agent; a picocli mixin. */
final class SearchPeerOptions {
    @Option(names = "--peer", paramLabel = "HOST:PORT",
            description = "Run each UDP trial as a stream through linerate's agent (`linerate serve`) at HOST:PORT "
                    + "(name:port, IPv4:port or [IPv6]:port): this host sends and the agent's receiver counts the loss.")
    String peer;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "With --peer: the agent's shared secret.")
    Path secretFile;

    @Option(names = {"--reverse", "-R"}, description = "With --peer: the agent sends and this host counts the loss.")
    boolean reverse;

    /** @return whether {@code --peer} was given */
    boolean given() {
        return peer != null;
    }

    /** @return the agent's endpoint, or loopback without {@code --peer} */
    Endpoint endpoint() {
        return peer == null ? Endpoint.loopback() : Endpoint.parse(peer);
    }

    /**
     * @param rawSearch whether a search over raw frames ({@code --tx/--rx}) was asked for
     * @param transportName {@code --transport}, or null
     * @throws IllegalArgumentException naming the option when {@code --secret-file} or
     *     {@code --reverse} comes without {@code --peer}, or {@code --peer} with a raw-frame search
     *     or a transport
     */
    void check(boolean rawSearch, String transportName) {
        if (peer == null && (secretFile != null || reverse)) {
            throw new IllegalArgumentException("--secret-file and --reverse apply with --peer HOST:PORT only");
        }
        if (peer != null && rawSearch) {
            throw new IllegalArgumentException("--peer " + peer + " runs UDP trials through the agent; a search over "
                    + "raw frames (--tx/--rx/--frame-sizes) runs on this host's interfaces: give one of them");
        }
        if (peer != null && transportName != null) {
            throw new IllegalArgumentException("--transport " + transportName + " picks a transport on this host; "
                    + "with --peer each trial is a stream through the agent: leave --transport out");
        }
    }

    /**
     * @return the secret (read from {@code --secret-file}) and the direction
     * @throws IllegalArgumentException when the secret file cannot be read, naming it
     */
    RemoteOptions options() {
        return new RemoteOptions(secretFile == null ? Optional.empty() : Optional.of(SecretFile.read(secretFile)), reverse);
    }
}
