package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.EndJson;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A UDP window with the agent in which no datagram arrived says why, as an in-process run does. */
class EndsJoinEmptyWindowTest {
    private static final AppliedOptions OPTIONS = new AppliedOptions(0, 0, 0, 0, 0, 0, false, false);

    private static TransferSpec udp(long rate) {
        return TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(1460)
                .rateBitsPerSecond(rate).duration(Duration.ofSeconds(1)).endpoint(Endpoint.remote("198.18.0.2", 7001))
                .build();
    }

    /** A 1 s window (from 0 to 1e9 ns) holding {@code windowMessages} datagrams of 1460 bytes. */
    private static EndCounters counters(boolean sender, long windowMessages) {
        return new EndCounters(sender, 1460 * windowMessages, windowMessages, 0, 1_000_000_000L, 1460 * windowMessages,
                windowMessages, 0, 0, 0, OptionalDouble.empty(), 1_000_000, List.of(), false);
    }

    private static List<String> reasons(TransferSpec spec, long sentInWindow) throws IOException {
        int[] agent = EndJson.options(EndJson.write(counters(false, 0), OPTIONS));
        return EndsJoin.join(spec, counters(true, sentInWindow), OPTIONS, counters(false, 0), agent).invalidReasons();
    }

    @Test
    void aPacedSenderThatSentNothingInTheWindowIsToldHowLongOneDatagramTakes() throws IOException {
        // 1460 bytes at 1000 bit/s: 11680 bits, 11.68 s per datagram, longer than the 1 s window
        assertThat(reasons(udp(1000), 0)).contains("no datagram was sent in the measured window of 1.000 s: at 1000 "
                + "bit/s one 1460-byte message leaves every 11.680 s, so lengthen the duration or raise the rate");
    }

    @Test
    void datagramsSentButNoneArrivedSaysHowMany() throws IOException {
        assertThat(reasons(udp(0), 40)).contains("none of the 40 datagrams sent in the measured window of 1.000 s "
                + "arrived");
    }
}
