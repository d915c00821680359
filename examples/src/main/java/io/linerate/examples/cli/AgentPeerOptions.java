package io.linerate.examples.cli;

import io.linerate.core.AgentPeer;
import io.linerate.core.Endpoint;
import io.linerate.core.PeerSecret;
import io.linerate.peers.agent.client.SecretFile;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code pingpong}'s and {@code rr}'s options for a far end run by linerate's agent; a picocli mixin. */
final class AgentPeerOptions {
    @Option(names = "--peer", paramLabel = "HOST:PORT",
            description = "Run the far end (the echo end, or the server) on linerate's agent (`linerate serve`) at "
                    + "HOST:PORT (name:port, IPv4:port or [IPv6]:port) instead of in this JVM.")
    String peer;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "With --peer: the agent's shared secret.")
    Path secretFile;

    /**
     * @return the agent with its secret ({@link AgentPeer}: forward, one stream), or loopback without {@code --peer}
     * @throws IllegalArgumentException when {@code --secret-file} comes without {@code --peer}, the
     *     peer is not HOST:PORT, or the file cannot be read (naming it)
     */
    Endpoint endpoint() {
        return agent(peer, secretFile);
    }

    /**
     * @param peer {@code --peer} as given, or null
     * @param secretFile {@code --secret-file} as given, or null
     * @return the agent at {@code peer} with the secret read from {@code secretFile}, or loopback without a peer
     * @throws IllegalArgumentException when a secret file comes without a peer, the peer is not
     *     HOST:PORT, or the file cannot be read (naming it)
     */
    static Endpoint agent(String peer, Path secretFile) {
        if (peer == null && secretFile != null) {
            throw new IllegalArgumentException("--secret-file applies with --peer HOST:PORT only");
        }
        return peer == null ? Endpoint.loopback() : AgentPeer.builder(Endpoint.parse(peer))
                .secret(secretFile == null ? null : PeerSecret.of(SecretFile.read(secretFile))).build();
    }
}
