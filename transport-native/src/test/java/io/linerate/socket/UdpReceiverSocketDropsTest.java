package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.UdpStats;
import io.linerate.core.sink.ResultJson;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A UDP stream on native sockets at an unlimited rate into a small receive buffer: the receiving socket's drops are
 * read from the kernel and reported. With a message bound and no warm-up the window is the whole
 * transfer, so every datagram the socket dropped is one of the window's lost ones (loopback
 * duplicates nothing, and a connected socket sees no other sender's datagrams).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@EnabledOnOs(OS.LINUX)
class UdpReceiverSocketDropsTest {

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void receivingSocketDropsAreKnownAndPartOfTheLoss(AddressFamily f) throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(f).payloadBytes(1000)
                .receiveBufferBytes(4096).bound(Bound.messages(20_000)).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).build();
        TransferResult r;
        try (Transfer t = Transports.byName("native").open(spec, Clock.system())) {
            r = t.run();
        }
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(20_000);
        assertThat(u.receiverSocketDrops()).isBetween(0L, u.lost());
        assertThat(ResultJson.transfer(r).toJson()).contains("\"receiver_socket_drops\":" + u.receiverSocketDrops());
    }
}
