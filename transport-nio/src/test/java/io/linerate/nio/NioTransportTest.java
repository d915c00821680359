package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioTransportTest {
    static final Endpoint PEER = Endpoint.parse("198.18.0.2:7001");

    @Test
    void withoutThePeersModuleAPeerOnAnotherHostIsRefusedNamingIt() {
        // transport-nio's own tests have no peer protocol on their class path: linerate-peers brings them
        String reason = "no peer protocol on the class path reaches Remote 198.18.0.2:7001: add linerate-peers";
        TransferSpec stream = TransferSpec.builder().endpoint(PEER).build();
        assertThat(new NioTransport().unsupportedReason(stream)).hasValue(reason);
        assertThat(new NioTransport().unsupportedReason(RrSpec.builder().endpoint(PEER).build())).hasValue(reason);
        assertThatThrownBy(() -> new NioTransport().open(stream, Clock.system()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(reason);
    }

    @Test
    void loopbackIsSupportedAndAvailableForStreamPingPongAndRequestResponse() {
        NioTransport nio = new NioTransport();
        assertThat(nio.patterns()).containsExactlyInAnyOrder(Pattern.STREAM, Pattern.PING_PONG, Pattern.REQUEST_RESPONSE);
        assertThat(nio.unsupportedReason(TransferSpec.builder().build())).isEmpty();
        assertThat(nio.unsupportedReason(PingPongSpec.builder().build())).isEmpty();
        assertThat(nio.unsupportedReason(RrSpec.builder().build())).isEmpty();
        assertThat(PingPongSpec.builder().build().endpoint()).isEqualTo(Endpoint.loopback());
        assertThat(RrSpec.builder().build().endpoint()).isEqualTo(Endpoint.loopback());
        assertThat(nio.isAvailable()).isTrue();
    }

    @Test
    void aPingPongProtocolJavaNioLacksIsRefusedBeforeOpening() {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UNIX_DATAGRAM).build();
        assertThat(new NioTransport().unsupportedReason(spec)).contains("unix_datagram is not supported: Java NIO has "
                + "Unix-domain stream sockets (SocketChannel) but no Unix-domain datagram channel; the native transport "
                + "(--transport native) runs it");
    }

    @Test
    void aPingPongBoundToADeviceIsRefusedNamingTheNativeTransport() {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).bindToDevice("lo").build();
        assertThat(new NioTransport().unsupportedReason(spec)).contains("bindtodev lo is not on the nio transport: Java "
                + "NIO cannot set SO_BINDTODEVICE; the native transport (--transport native) binds the sockets to an interface");
    }

    @Test
    void thePingPongOfOnePathIsFoundOnNioAndRuns() throws Exception {
        // 50 warm-up round trips (no warm-up time), then exactly 200 measured (floor = cap = 200;
        // the 30 s time cap is far beyond what 200 loopback round trips take even on a busy host)
        PingPongSpec spec = PingPongSpec.builder().sizes(List.of(1, 64))
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), 200, 200, Duration.ZERO, 50))
                .timeout(Duration.ofSeconds(5)).build();

        Transport t = Transports.select(null, spec);
        assertThat(t.name()).isEqualTo(NioTransport.NAME);
        MeasurementResult result;
        try (Measurement m = t.open(spec, Clock.system())) {
            assertThat(m.spec()).isSameAs(spec);
            result = m.run();
            assertThatThrownBy(m::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("already run");
        }

        assertThat(result).isInstanceOf(PingPongResult.class);
        PingPongResult r = (PingPongResult) result;
        assertThat(r.spec()).isSameAs(spec);
        assertThat(r.valid()).isTrue();
        assertThat(r.sizes()).extracting(PingPongResult.SizeCounts::measured).containsExactly(200L, 200L);
        // two sizes of 50 + 200 round trips each
        assertThat(r.roundTrips()).isEqualTo(500);
        // per size: mean, min, p50, p99, max and stddev, labelled with the size
        assertThat(r.metrics()).extracting(Metric::name).containsExactly(
                "latency_mean", "latency_min", "latency_p50", "latency_p99", "latency_max", "latency_stddev",
                "latency_mean", "latency_min", "latency_p50", "latency_p99", "latency_max", "latency_stddev");
        assertThat(r.metrics()).extracting(m -> m.labels().get("size")).containsExactly(
                "1", "1", "1", "1", "1", "1", "64", "64", "64", "64", "64", "64");
        // the facts are this host's, gathered without a command line; the options state the spec
        assertThat(r.report().facts().options()).isEqualTo(spec.toString());
        String json = ResultJson.of(r).toJson();
        assertThat(json).startsWith("{\"format\":\"linerate-result\",\"version\":1,\"pattern\":\"ping-pong\","
                + "\"test\":\"pingpong_tcp\",\"valid\":true,\"invalid_reasons\":[],\"metrics\":[{")
                .contains("\"detail\":{\"format\":\"linerate-latency\"")
                .contains("\"size\":1,\"iterations\":200,").contains("\"size\":64,\"iterations\":200,");
    }

    @Test
    void theRequestResponseOfOnePathIsFoundOnNioAndRuns() throws Exception {
        RrSpec spec = RrSpec.builder().flows(2).requestBytes(32).responseBytes(100)
                .duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).timeout(Duration.ofSeconds(5)).build();

        Transport t = Transports.select(NioTransport.NAME, spec);
        MeasurementResult result;
        try (Measurement m = t.open(spec, Clock.system())) {
            result = m.run();
        }

        assertThat(result).isInstanceOf(RrResult.class);
        RrResult r = (RrResult) result;
        assertThat(r.valid()).isTrue();
        long inWindow = r.report().transactions();
        // at least the window's transactions completed over the whole run, and the server counted
        // a response for every transaction a flow completed
        assertThat(r.completed()).isGreaterThanOrEqualTo(inWindow).isPositive();
        assertThat(r.served()).isGreaterThanOrEqualTo(r.completed());
        // transactions/s in total and per flow, then latency p50, p99 and mean, every one stamped
        // with the window's length
        assertThat(r.metrics()).extracting(Metric::name).containsExactly("transactions_per_second",
                "transactions_per_second", "transactions_per_second", "latency_p50", "latency_p99", "latency_mean");
        assertThat(r.metrics()).extracting(Metric::timeSeconds).containsOnly(r.report().windowNanos() / 1e9);
        assertThat(r.metrics().get(0).value()).isEqualTo(inWindow * 1e9 / r.report().windowNanos());
        assertThat(ResultJson.of(r).toJson()).contains("\"pattern\":\"request-response\",\"test\":\"tcp_rr\",\"valid\":true")
                .contains("\"detail\":{\"format\":\"linerate-rr\"").contains("\"request_bytes\":32,\"response_bytes\":100");
    }
}
