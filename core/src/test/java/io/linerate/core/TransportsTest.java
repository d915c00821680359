package io.linerate.core;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.spi.Transport;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Discovery over the providers this module's test class path registers (see
 * {@code src/test/resources/META-INF/services/io.linerate.core.spi.Transport}): an unavailable one, a
 * missing class, a constructor that throws, and a UDP-only one, in that order.
 */
class TransportsTest {

    private static TransferSpec spec(Protocol p) {
        return TransferSpec.builder().protocol(p).duration(Duration.ofMillis(100)).build();
    }

    @Test
    void brokenProvidersAreReportedAndTheOthersStillLoad() {
        Transports.Discovery d = Transports.discover();

        assertThat(d.transports()).extracting(Transport::name).containsExactly("fake-unavailable", "fake-udp");
        assertThat(d.problems()).hasSize(2);
        assertThat(d.problems().get(0)).contains("io.linerate.core.fake.NoSuchTransport");
        assertThat(d.problems().get(1)).contains("FakeTransports$Throwing").contains("broken on purpose");
    }

    @Test
    void availabilityComesFromTheCause() {
        Transport unavailable = Transports.byName("fake-unavailable");
        assertThat(unavailable.isAvailable()).isFalse();
        assertThat(unavailable.unavailabilityCause()).contains("needs a privilege this host lacks");
        assertThat(Transports.byName("fake-udp").isAvailable()).isTrue();
    }

    @Test
    void forSpecSkipsUnavailableAndUnsupportedTransportsSayingWhy() {
        assertThat(Transports.forSpec(spec(Protocol.UDP)).name()).isEqualTo("fake-udp");

        assertThatThrownBy(() -> Transports.forSpec(spec(Protocol.TCP)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fake-unavailable: unavailable: needs a privilege this host lacks")
                .hasMessageContaining("fake-udp: fake-udp moves UDP only")
                .hasMessageContaining("providers that failed to load")
                .hasMessageContaining("NoSuchTransport");
    }

    @Test
    void selectByNameChecksSupportAndAvailability() {
        assertThat(Transports.select("fake-udp", spec(Protocol.UDP)).name()).isEqualTo("fake-udp");
        assertThat(Transports.select(null, spec(Protocol.UDP)).name()).isEqualTo("fake-udp");
        assertThatThrownBy(() -> Transports.select("fake-udp", spec(Protocol.TCP)))
                .hasMessageContaining("transport 'fake-udp' cannot run").hasMessageContaining("UDP only");
        assertThatThrownBy(() -> Transports.select("fake-unavailable", spec(Protocol.UDP)))
                .hasMessage("transport 'fake-unavailable' is unavailable on this host: needs a privilege this host lacks");
        assertThatThrownBy(() -> Transports.select("nope", spec(Protocol.UDP)))
                .hasMessageStartingWith("no transport named 'nope'; available: fake-unavailable, fake-udp");
    }

    @Test
    void aSpecOfAPatternNoTransportListsIsRefusedNamingThePatterns() {
        PingPongSpec pp = PingPongSpec.builder().build();
        assertThat(pp.pattern()).isEqualTo(Pattern.PING_PONG);

        // both fakes keep Transport's default patterns(), stream alone
        assertThatThrownBy(() -> Transports.select("fake-udp", pp))
                .hasMessage("transport 'fake-udp' cannot run this ping-pong spec: runs [stream], not ping-pong");
    }
}
