package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The pacing timer crosses iperf3's wire as the {@code pacing_timer} parameter in microseconds
 * (iperf3's {@code send_parameters}, default 1000): linerate's client sends its spec's, and
 * linerate's server paces a sending stream by the client's.
 */
class Iperf3PacingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void serverReadsTheClientsTimerAndAssumesIperf3sDefaultWithoutOne() throws Exception {
        assertThat(Iperf3TestParams.parse(JSON.readTree("{\"tcp\":true,\"pacing_timer\":250}")).pacingTimerMicros())
                .isEqualTo(250);
        assertThat(Iperf3TestParams.parse(JSON.readTree("{\"tcp\":true}")).pacingTimerMicros()).isEqualTo(1000);
        assertThatThrownBy(() -> Iperf3TestParams.parse(JSON.readTree("{\"tcp\":true,\"pacing_timer\":-5}")))
                .isInstanceOf(Iperf3Exception.class).hasMessageContaining("pacing_timer").hasMessageContaining("-5");
    }

    @Test
    void aTimerBeyondTenMillisecondsIsShortenedAndTheRateKept() {
        assertThat(Pace.ofClient(1_000_000, 250)).isEqualTo(new Pace(1_000_000, 250_000));
        assertThat(Pace.ofClient(1_000_000, 10_000)).isEqualTo(new Pace(1_000_000, 10_000_000));
        assertThat(Pace.ofClient(1_000_000, 20_000)).isEqualTo(new Pace(1_000_000, 10_000_000));
        assertThat(Pace.ofClient(5, Long.MAX_VALUE)).isEqualTo(new Pace(5, 10_000_000));
        assertThat(Pace.ofClient(0, 0)).isEqualTo(new Pace(0, 0));
        assertThatThrownBy(() -> new Pace(0, 10_000_001)).hasMessageContaining("10000001 ns").hasMessageContaining("0..10000000");
        assertThatThrownBy(() -> new Pace(-1, 0)).hasMessageContaining("-1 bit/s");
    }

    @Test
    void clientSendsItsSpecsTimerInMicroseconds() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(15_000);
            CompletableFuture<JsonNode> params = CompletableFuture.supplyAsync(() -> {
                try (Socket control = server.accept()) {
                    control.setSoTimeout(15_000);
                    DataInputStream in = new DataInputStream(control.getInputStream());
                    DataOutputStream out = new DataOutputStream(control.getOutputStream());
                    in.readFully(new byte[Iperf3Wire.COOKIE_BYTES]);
                    out.writeByte(Iperf3State.PARAM_EXCHANGE);
                    byte[] json = new byte[in.readInt()];
                    in.readFully(json);
                    out.writeByte(Iperf3State.ACCESS_DENIED); // ends the client's test here
                    out.flush();
                    return JSON.readTree(json);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1000).bound(Bound.bytes(10_000))
                    .rateBitsPerSecond(1_000_000).pacingTimer(Duration.ofMillis(3).plusNanos(250_000)).ioTimeout(Duration.ofSeconds(2))
                    .build();
            assertThatThrownBy(() -> Iperf3Client.run("127.0.0.1", server.getLocalPort(), spec, Iperf3Options.defaults()))
                    .isInstanceOf(Iperf3Exception.class);
            JsonNode p = params.get(15, TimeUnit.SECONDS);
            assertThat(p.get("pacing_timer").asLong()).isEqualTo(3250);
            assertThat(p.get("bandwidth").asLong()).isEqualTo(1_000_000);
        }
    }
}
