package io.linerate.nio.iperf2;

import io.linerate.nio.agent.AgentLimits;
import io.linerate.nio.peer.AllowFrom;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * How linerate serves iperf 2 clients ({@code linerate serve --iperf2}).
 *
 * @param bind the address of the TCP and UDP ports (the same number)
 * @param port 0 (ephemeral)..65535; iperf 2's own default is {@value #DEFAULT_PORT}
 * @param allowFrom the client addresses served; required (non-empty) unless {@code bind} is a
 *     loopback address, since iperf 2 clients cannot send linerate's shared secret
 * @param limits tests at once (TCP and UDP together), longest test, highest rate, largest datagram
 * @param ioTimeout a test silent this long is ended; at least 1 ms
 */
public record Iperf2ServerConfig(InetAddress bind, int port, AllowFrom allowFrom, AgentLimits limits, Duration ioTimeout) {
    /** iperf 2's port. */
    public static final int DEFAULT_PORT = 5001;
    /** Default I/O timeout. */
    public static final Duration DEFAULT_IO_TIMEOUT = Duration.ofSeconds(10);

    /**
     * @throws IllegalArgumentException for a port out of range, a timeout under 1 ms, or a
     *     non-loopback bind without {@code --allow-from}
     */
    public Iperf2ServerConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(allowFrom, "allowFrom");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(ioTimeout, "ioTimeout");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range; allowed: 0 (ephemeral)..65535");
        }
        if (ioTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("I/O timeout " + ioTimeout.toMillis() + " ms is out of range; allowed: 1 ms or more");
        }
        if (allowFrom.isEmpty() && !bind.isLoopbackAddress()) {
            throw new IllegalArgumentException("serve --iperf2 binds " + bind.getHostAddress()
                    + ", which is not a loopback address: it needs --allow-from CIDR[,CIDR...], since iperf 2 clients "
                    + "cannot send linerate's shared secret");
        }
    }
}
