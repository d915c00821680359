package io.linerate.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.TcpStats;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.spi.tcp.TcpInfoSource;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.time.Duration;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With the native module on the class path, as it is for the command line, an {@code nio} TCP
 * stream's result carries the sender's {@code tcp_info} (read through sock_diag netlink), and its
 * send loop still allocates nothing in the window.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NioTcpInfoTest {
    /** IPv4 and TCP headers without options, bytes (RFC 791, RFC 9293). */
    private static final int IPV4_TCP_HEADERS = 40;

    @Test
    void theNativeModulesSourceIsOnTheClassPath() {
        assertThat(ServiceLoader.load(TcpInfoSource.class).stream().map(p -> p.type().getName()))
                .contains("io.linerate.jni.SockDiagTcpInfo");
    }

    @Test
    void aNioTcpStreamReportsTheSendersTcpInfo() throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
                .warmup(Duration.ZERO).bound(Bound.bytes(10L << 20)).interval(Duration.ofSeconds(1)).build();
        TransferResult r;
        try (Transfer t = Transports.byName("nio").open(spec, Clock.system())) {
            r = t.run();
        }
        assertThat(r.bytesReceived()).isEqualTo(10L << 20);
        TcpStats tcp = r.tcp().orElseThrow();
        int mtu = NetworkInterface.getByInetAddress(InetAddress.getByName("127.0.0.1")).getMTU();
        assertThat(tcp.senderMss()).isBetween(1L, (long) mtu - IPV4_TCP_HEADERS);
        assertThat(tcp.receiverMss()).isBetween(1L, (long) mtu - IPV4_TCP_HEADERS);
        assertThat(tcp.cwndBytes()).isPositive();
        assertThat(tcp.rttMicros()).isPositive();
        assertThat(tcp.windowRetransmits()).isBetween(0L, tcp.totalRetransmits());
        assertThat(r.metrics()).anySatisfy(m -> assertThat(m.name()).isEqualTo("tcp4_retransmits"));
    }

    @Test
    void theSendLoopReadingTcpInfoAllocatesNothingAfterWarmup() throws Exception {
        // as transport-nio's SteadyStateAllocationTest: under 0.01 byte per message in every run,
        // and exactly 0 in one of at most three (the JIT may recompile once inside a window)
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
                .warmup(Duration.ofSeconds(3)).duration(Duration.ofSeconds(1)).interval(Duration.ofSeconds(1)).build();
        boolean clean = false;
        for (int run = 0; run < 3 && !clean; run++) {
            TransferResult r;
            try (Transfer t = Transports.byName("nio").open(spec, Clock.system())) {
                r = t.run();
            }
            assertThat(r.tcp()).as("the sender's TCP_INFO was read").isPresent();
            long messages = r.messagesSent();
            assertThat(messages).isGreaterThan(10_000);
            assertThat(r.senderAllocatedBytes()).as("sender bytes allocated in the window").isNotNegative()
                    .isLessThan(messages / 100);
            clean = r.senderAllocatedBytes() == 0 && r.receiverAllocatedBytes() == 0;
        }
        assertThat(clean).as("one of three runs allocated nothing in its window").isTrue();
    }
}
