package io.linerate.peers.server;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A test a server admitted.
 *
 * @param test the test's number on this server, from 1 in the order tests were started (the agent
 *     numbers every connection it accepted, the iperf servers every test)
 * @param client the client's address and port
 * @param what what the test is, for people, e.g. {@code iperf3 TCP, 2 streams, reverse}
 */
public record ServedStart(long test, InetSocketAddress client, String what) {
    /** @throws NullPointerException for a null client or description */
    public ServedStart {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(what, "what");
    }
}
