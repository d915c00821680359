package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Endpoint;
import java.io.EOFException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that is not linerate's agent, as an iperf3 server, which waits for its client's cookie and
 * says nothing first: the client's error says the peer did not answer as the agent and may be
 * another server, instead of only that no control message came.
 */
@Timeout(60)
class AgentClientNotAnAgentTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final RemoteOptions NO_SECRET = new RemoteOptions(Optional.empty(), false);

    @Test
    void aSilentPeerIsNamedAsPossiblyAnotherServer() throws Exception {
        // the kernel completes the connection from the backlog; nothing accepts it, so nothing is sent
        try (ServerSocket silent = new ServerSocket(0, 1, LOOPBACK)) {
            Endpoint.Remote peer = Endpoint.remote("127.0.0.1", silent.getLocalPort());
            assertThatThrownBy(() -> AgentClient.connect(peer, LOOPBACK, 300, NO_SECRET))
                    .isInstanceOf(SocketTimeoutException.class)
                    .hasMessage("no control message within 300 ms: the peer at 127.0.0.1:" + silent.getLocalPort()
                            + " did not answer as linerate's agent (`linerate serve`), which greets each client first; "
                            + "it may be another server, such as iperf3 or iperf 2, which only "
                            + "`linerate stream --peer-protocol iperf3|iperf2` talks to");
        }
    }

    @Test
    void aPeerThatClosesAtOnceIsNamedAsAStoppingOrRefusingAgentOrAnotherServer() throws Exception {
        try (ServerSocket closing = new ServerSocket(0, 1, LOOPBACK)) {
            CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> {
                try (Socket s = closing.accept()) {
                    // closed without a word
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Endpoint.Remote peer = Endpoint.remote("127.0.0.1", closing.getLocalPort());
            assertThatThrownBy(() -> AgentClient.connect(peer, LOOPBACK, 30_000, NO_SECRET))
                    .isInstanceOf(EOFException.class)
                    .hasMessage("the peer closed the control connection: the peer at 127.0.0.1:" + closing.getLocalPort()
                            + " closed it before linerate's agent's greeting, as an agent that is stopping, or that does "
                            + "not serve this address (--allow-from), does; if it is no agent but another server, such as "
                            + "iperf3 or iperf 2, only `linerate stream --peer-protocol iperf3|iperf2` talks to it");
            closed.join();
        }
    }
}
