package io.linerate.peers.internal;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.time.Duration;
import jdk.net.ExtendedSocketOptions;

/**
 * Kernel keepalive probes on a control connection that carries nothing while a test runs (iperf3's
 * protocol is silent between TEST_RUNNING and TEST_END), sized so that a black-holed path fails the
 * connection within about the I/O timeout: the probes go after 1 s without data, 1 s apart, and the
 * connection fails with ETIMEDOUT after {@code max(1, T − 1)} unanswered ones (T the timeout in whole
 * seconds, at least 2). So an end that waits on the connection, a UDP sender that counts nothing from
 * its receiver too, learns of a silent path within {@code max(T, 2)} s, as iperf3's {@code --cntl-ka}
 * would with those values. The peer's kernel answers the probes: any peer works, a real iperf3 too.
 */
public final class KeepAlive {
    private KeepAlive() {
    }

    /**
     * @param ioTimeout the silence after which the connection should fail
     * @return unanswered probes before the connection fails: the timeout in whole seconds − 1, at least 1
     */
    public static int probes(Duration ioTimeout) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, ioTimeout.toSeconds() - 1));
    }

    /**
     * Turns keepalive on for {@code channel}, sized by {@link #probes}; where the platform has no
     * TCP_KEEPIDLE, TCP_KEEPINTERVAL or TCP_KEEPCOUNT, only SO_KEEPALIVE is set (the system's timings
     * then apply).
     *
     * @throws IOException when an option cannot be set
     */
    public static void forSilence(NetworkChannel channel, Duration ioTimeout) throws IOException {
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        var supported = channel.supportedOptions();
        if (supported.contains(ExtendedSocketOptions.TCP_KEEPIDLE)
                && supported.contains(ExtendedSocketOptions.TCP_KEEPINTERVAL)
                && supported.contains(ExtendedSocketOptions.TCP_KEEPCOUNT)) {
            channel.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, 1);
            channel.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, 1);
            channel.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, probes(ioTimeout));
        }
    }
}
