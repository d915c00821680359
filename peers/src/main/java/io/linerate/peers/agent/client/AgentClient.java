package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Endpoint;
import io.linerate.core.Failures;
import io.linerate.core.TransferException;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.Hmac;
import io.linerate.peers.agent.internal.wire.HostClock;
import java.io.EOFException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Base64;
import java.util.Optional;

/** The client's side of the control connection up to the request: connect, answer the challenge. */
final class AgentClient {
    private AgentClient() {}

    /**
     * @return the first address of {@code peer}'s host of the family
     * @throws TransferException (usage error) when the host has no address of the family
     */
    static InetAddress resolve(Endpoint.Remote peer, AddressFamily family) throws TransferException {
        try {
            for (InetAddress a : InetAddress.getAllByName(peer.host())) {
                if (family == AddressFamily.IPV4 ? a instanceof Inet4Address : a instanceof Inet6Address) {
                    return a;
                }
            }
        } catch (UnknownHostException e) {
            throw new TransferException("peer host '" + peer.host() + "' cannot be resolved", e, true);
        }
        throw new TransferException("peer host '" + peer.host() + "' has no IPv" + family.label()
                + " address; pass the other --family or an address of this family", null, true);
    }

    /**
     * An authenticated control connection and how the agent's clock compares with this host's.
     *
     * @param control the connection; the caller closes it
     * @param clock {@link HostClock#SAME_HOST} or {@link HostClock#UNSYNCHRONISED}
     */
    record Connected(Control control, String clock) {}

    /**
     * Connects the control connection and answers the agent's challenge when it sends one; each
     * step bounded by {@code timeoutMillis}.
     *
     * @return the authenticated control connection and the clock comparison
     * @throws TransferException (usage error) when the agent wants a secret and none is given
     * @throws IOException when the agent cannot be reached or refuses (its reason is the message);
     *     nothing is left open
     */
    static Connected connect(Endpoint.Remote peer, InetAddress address, int timeoutMillis, RemoteOptions options)
            throws IOException, TransferException {
        Socket s = new Socket();
        Control c;
        try {
            s.connect(new InetSocketAddress(address, peer.port()), timeoutMillis);
            c = new Control(s, timeoutMillis);
        } catch (java.net.ConnectException e) {
            s.close();
            java.net.ConnectException refused = new java.net.ConnectException(Failures.describe(e) + ": nothing listens "
                    + "on port " + peer.port() + "; is `linerate serve` running there (its default port is "
                    + Control.DEFAULT_PORT + ")?");
            refused.initCause(e);
            throw refused;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        try {
            JsonNode hello = hello(c, peer);
            if (hello.hasNonNull("nonce")) {
                if (options.secret().isEmpty()) {
                    throw new TransferException("the agent at " + peer + " requires a shared secret: pass --secret-file",
                            null, true);
                }
                byte[] nonce = Base64.getDecoder().decode(hello.get("nonce").asText());
                c.send(Control.message("auth").put("hmac",
                        Base64.getEncoder().encodeToString(Hmac.answer(options.secret().get(), nonce))));
                // the agent's verdict on the answer comes before anything else: a refusal is read here,
                // not lost to a broken pipe when the request is sent to a closed session
                c.expect("authenticated");
            }
            Optional<String> agentClock = hello.path("clock").isTextual() ? Optional.of(hello.get("clock").asText())
                    : Optional.empty();
            return new Connected(c, HostClock.compare(HostClock.identity(), agentClock));
        } catch (IOException | TransferException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * The agent's first control message. A peer that sends none within the timeout may be another
     * server, which waits for its own client's first words; one that closes before it may be an agent
     * that is stopping or does not serve this address, or another server.
     */
    private static JsonNode hello(Control c, Endpoint.Remote peer) throws IOException {
        try {
            return c.expect("hello");
        } catch (SocketTimeoutException e) {
            SocketTimeoutException t = new SocketTimeoutException(e.getMessage() + notTheAgent(peer));
            t.initCause(e);
            throw t;
        } catch (EOFException e) {
            EOFException t = new EOFException(e.getMessage() + ": the peer at " + peer + " closed it before linerate's "
                    + "agent's greeting, as an agent that is stopping, or that does not serve this address "
                    + "(--allow-from), does; if it is no agent but another server, such as iperf3 or iperf 2, only "
                    + "`linerate stream --peer-protocol iperf3|iperf2` talks to it");
            t.initCause(e);
            throw t;
        }
    }

    private static String notTheAgent(Endpoint.Remote peer) {
        return ": the peer at " + peer + " did not answer as linerate's agent (`linerate serve`), which greets each "
                + "client first; it may be another server, such as iperf3 or iperf 2, which only "
                + "`linerate stream --peer-protocol iperf3|iperf2` talks to";
    }
}
