package io.linerate.examples.cli;

import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.iperf2.Iperf2ServerConfig;
import io.linerate.peers.iperf3.Iperf3ServerConfig;
import io.linerate.peers.server.AllowFrom;
import io.linerate.peers.server.PeerServer;
import io.linerate.peers.server.PeerServerConfig;
import java.time.Duration;

/** The server {@code linerate serve} runs: the agent, or one for iperf3's or iperf 2's clients; what sets them apart in the command. */
enum ServedKind {
    /** linerate's agent, for {@code stream|pingpong|rr|raw --peer}. */
    AGENT("serve", "linerate", AgentConfig.DEFAULT_PORT, AgentConfig.DEFAULT_HANDSHAKE_TIMEOUT),
    /** For {@code iperf3 -c}. */
    IPERF3("--iperf3", "iperf3", Iperf3ServerConfig.DEFAULT_PORT, Iperf3ServerConfig.DEFAULT_IO_TIMEOUT),
    /** For {@code iperf -c} and zperf. */
    IPERF2("--iperf2", "iperf 2", Iperf2ServerConfig.DEFAULT_PORT, Iperf2ServerConfig.DEFAULT_IO_TIMEOUT);

    /** The option that picks the server. */
    final String option;
    /** The clients' tool, as error messages name it. */
    final String tool;
    /** The port when {@code --port} is not given. */
    final int defaultPort;
    /** The I/O timeout (the agent's handshake timeout). */
    final Duration ioTimeout;

    ServedKind(String option, String tool, int defaultPort, Duration ioTimeout) {
        this.option = option;
        this.tool = tool;
        this.defaultPort = defaultPort;
        this.ioTimeout = ioTimeout;
    }

    /** @return the server and where it listens, for the line {@code serve} starts with */
    String describe(PeerServer server, PeerServerConfig config) {
        String where = server.address().getAddress().getHostAddress() + " port " + server.address().getPort();
        AllowFrom allowFrom = config.allowFrom();
        return switch (this) {
            case AGENT -> "agent on " + where + (((AgentConfig) config).secret().isPresent() ? ", shared secret required" : "")
                    + (allowFrom.isEmpty() ? "" : ", clients from " + allowFrom);
            case IPERF3 -> "iperf3 server on " + where + " (TCP and UDP), clients from " + allowFrom;
            case IPERF2 -> "iperf 2 server on " + where + " (TCP and UDP), clients from " + allowFrom
                    + "; each test and the UDP header it used are logged";
        };
    }
}
