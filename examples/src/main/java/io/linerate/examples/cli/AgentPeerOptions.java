package io.linerate.examples.cli;

import io.linerate.core.Endpoint;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.SecretFile;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code pingpong}'s and {@code rr}'s options for a far end run by linerate's agent; a picocli mixin. */
final class AgentPeerOptions {
    @Option(names = "--peer", paramLabel = "HOST:PORT",
            description = "Run the far end (the echo end, or the server) on linerate's agent (`linerate serve`) at "
                    + "HOST:PORT (name:port, IPv4:port or [IPv6]:port) instead of in this JVM.")
    String peer;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "With --peer: the agent's shared secret.")
    Path secretFile;

    /** @return the agent's endpoint, or loopback without {@code --peer} */
    Endpoint endpoint() {
        return peer == null ? Endpoint.loopback() : Endpoint.parse(peer);
    }

    /**
     * @return the secret, without {@code --reverse}
     * @throws IllegalArgumentException when {@code --secret-file} comes without {@code --peer}, or
     *     the file cannot be read (naming it)
     */
    RemoteOptions options() {
        if (peer == null && secretFile != null) {
            throw new IllegalArgumentException("--secret-file applies with --peer HOST:PORT only");
        }
        return new RemoteOptions(secretFile == null ? Optional.empty() : Optional.of(SecretFile.read(secretFile)), false);
    }
}
