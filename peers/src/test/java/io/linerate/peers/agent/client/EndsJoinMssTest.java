package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.EndJson;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The MSS of a stream with the agent: read at both ends where each end read its own socket's
 * ({@code TCP_MAXSEG}, the agent's as {@code mss_read} on the control connection), else this end's
 * as it found it.
 */
class EndsJoinMssTest {
    private static final TransferSpec SPEC = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
            .payloadBytes(1000).duration(Duration.ofSeconds(1)).endpoint(Endpoint.remote("198.18.0.2", 7001)).build();

    private static EndCounters counters(boolean sender) {
        return new EndCounters(sender, 300_000, 300, 0, 1_000_000_000L, 250_000, 250, 0, 0, 0, OptionalDouble.empty(),
                5_000_000, List.of(), false);
    }

    private static AppliedOptions options(TcpMss mss) {
        return new AppliedOptions(0, 0, 0, 0, 0, 0, false, false, Optional.of(mss));
    }

    /** @return the agent's options as this end reads them off the wire, written as the agent writes them */
    private static int[] wire(boolean agentSends, AppliedOptions agent) throws IOException {
        return EndJson.options(EndJson.write(counters(agentSends), agent));
    }

    @Test
    void whereBothEndsReadTheirSocketsTheMssIsEachEndsOwn() throws IOException {
        TcpMss here = TcpMss.read(AddressFamily.IPV4, 1448, 1448, "TCP_MAXSEG of this host's end");
        TcpMss there = TcpMss.read(AddressFamily.IPV4, 1436, 1436, "TCP_MAXSEG of this host's end");

        // this host sends: its figure is the sender's, the agent's the receiver's
        TcpMss forward = EndsJoin.join(SPEC, counters(true), options(here), counters(false), wire(false, options(there)))
                .options().tcpMss().orElseThrow();
        assertThat(forward.read()).hasValue(new TcpMss.Read(1448, 1436, "TCP_MAXSEG"));
        // the agent sends
        TcpMss reverse = EndsJoin.join(SPEC, counters(false), options(here), counters(true), wire(true, options(there)))
                .options().tcpMss().orElseThrow();
        assertThat(reverse.read()).hasValue(new TcpMss.Read(1436, 1448, "TCP_MAXSEG"));
        assertThat(reverse.derivation()).isEqualTo("read: TCP_MAXSEG 1436 at the sender, 1448 at the receiver");
    }

    @Test
    void whereEitherEndDerivedItsMssThisEndsStands() throws IOException {
        TcpMss derived = new TcpMss(AddressFamily.IPV4, 1500, 12);
        TcpMss read = TcpMss.read(AddressFamily.IPV4, 1448, 1448, "TCP_MAXSEG of this host's end");

        // an agent that derived its MSS sends none
        assertThat(wire(false, options(derived))[4]).isZero();
        assertThat(EndsJoin.join(SPEC, counters(true), options(read), counters(false), wire(false, options(derived)))
                .options().tcpMss()).hasValue(read);
        assertThat(EndsJoin.join(SPEC, counters(true), options(derived), counters(false), wire(false, options(read)))
                .options().tcpMss()).hasValue(derived);
    }
}
