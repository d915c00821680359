package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.LatencyMode;
import io.linerate.core.search.Resolution;
import io.linerate.core.search.SearchSpec;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every spec's {@code toBuilder()}: a round trip gives an equal spec, and changing one value
 * through it changes that value alone. The specs start from values that all differ from the
 * builders' defaults, so a value that {@code toBuilder()} forgets shows up as a default.
 */
class SpecToBuilderTest {

    private static final Endpoint PEER = Endpoint.remote("198.18.0.2", 5201);

    @Test
    void aTransferSpecRoundTripsAndChangesOneValueAtATime() {
        TransferSpec tcp = TransferSpec.builder().family(AddressFamily.IPV6).payloadBytes(4000)
                .bound(Bound.bytes(1_000_000)).rateBitsPerSecond(50_000_000).noDelay(true).trafficClass(0x48)
                .sendBufferBytes(65536).receiveBufferBytes(131072).warmup(Duration.ofMillis(500))
                .interval(Duration.ofMillis(200)).port(5201).ioTimeout(Duration.ofSeconds(7))
                .pacingTimer(Duration.ofMillis(2)).streamId(9).endpoint(PEER).io(new StreamIo(0, false, true, true))
                .affinity(Affinity.parse("1;0")).build();
        TransferSpec udp = tcp.toBuilder().protocol(Protocol.UDP).noDelay(false).payloadBytes(1400)
                .io(new StreamIo(16, true, false, false))
                .fullLog(Path.of("full.log")).build();
        for (TransferSpec s : List.of(tcp, udp)) {
            assertThat(s.toBuilder().build()).usingRecursiveComparison().withStrictTypeChecking().isEqualTo(s);
        }
        Map<String, UnaryOperator<TransferSpec.Builder>> one = new LinkedHashMap<>();
        one.put("family", b -> b.family(AddressFamily.IPV4));
        one.put("payloadBytes", b -> b.payloadBytes(4001));
        one.put("bound", b -> b.duration(Duration.ofSeconds(3)));
        one.put("rateBitsPerSecond", b -> b.rateBitsPerSecond(1));
        one.put("noDelay", b -> b.noDelay(false));
        one.put("trafficClass", b -> b.trafficClass(0));
        one.put("sendBufferBytes", b -> b.sendBufferBytes(1));
        one.put("receiveBufferBytes", b -> b.receiveBufferBytes(1));
        one.put("warmup", b -> b.warmup(Duration.ZERO));
        one.put("interval", b -> b.interval(Duration.ofMillis(300)));
        one.put("port", b -> b.port(5202));
        one.put("ioTimeout", b -> b.ioTimeout(Duration.ofSeconds(8)));
        one.put("pacingTimer", b -> b.pacingTimer(Duration.ZERO));
        one.put("streamId", b -> b.streamId(10));
        one.put("endpoint", b -> b.endpoint(Endpoint.loopback()));
        one.put("io", b -> b.io(new StreamIo(0, false, true, false)));
        one.put("affinity", b -> b.affinity(Affinity.parse("any;0")));
        eachAlone(tcp, TransferSpec::toBuilder, TransferSpec.Builder::build, one);
        // the protocol and the full log each need a UDP spec: TCP_NODELAY and a full log are off-protocol
        Map<String, UnaryOperator<TransferSpec.Builder>> udpOne = new LinkedHashMap<>();
        // off UDP, its batch and GSO are off-protocol too
        udpOne.put("protocol,io", b -> b.protocol(Protocol.TCP).io(StreamIo.DEFAULT));
        udpOne.put("fullLog", b -> b.fullLog(Path.of("other.log")));
        eachAlone(udp.toBuilder().fullLog(null).build(), TransferSpec::toBuilder, TransferSpec.Builder::build,
                Map.of("protocol,io", udpOne.get("protocol,io")));
        eachAlone(udp, TransferSpec::toBuilder, TransferSpec.Builder::build, Map.of("fullLog", udpOne.get("fullLog")));
        one.putAll(udpOne);
        assertThat(names(one)).isEqualTo(instanceFields(TransferSpec.class));
    }

    @Test
    void aPingPongSpecRoundTripsAndChangesOneValueAtATime() {
        PingPongSpec s = PingPongSpec.builder().protocol(PingPongProtocol.UDP).family(AddressFamily.IPV6)
                .sizes(List.of(32, 64)).policy(new IterationPolicy(Duration.ofMillis(10), Duration.ofMillis(20), 5, 50,
                        Duration.ofMillis(1), 2))
                .clientMuxer(Muxer.SPIN).serverMuxer(Muxer.SELECTOR).noDelay(false).sendBufferBytes(65536)
                .receiveBufferBytes(131072).trafficClass(0x10).timeout(Duration.ofSeconds(3)).percentile(99.9)
                .mode(LatencyMode.RTT).idle(Idle.YIELD).fullLog(Path.of("rtt.log")).endpoint(PEER).build();
        assertThat(s.toBuilder().build()).isEqualTo(s);
        // connect and multicast exclude each other, and the base holds the default of both: each round-trips alone
        PingPongMulticast group = PingPongMulticast.parse("ff15::7", "lo", true, AddressFamily.IPV6);
        PingPongSpec connected = s.toBuilder().connect(true).build();
        assertThat(connected.toBuilder().build()).isEqualTo(connected);
        PingPongSpec multicast = s.toBuilder().multicast(group).build();
        assertThat(multicast.toBuilder().build()).isEqualTo(multicast);
        assertThat(multicast.toBuilder().multicast(null).build()).isEqualTo(s);
        Map<String, UnaryOperator<PingPongSpec.Builder>> one = new LinkedHashMap<>();
        one.put("protocol", b -> b.protocol(PingPongProtocol.TCP));
        one.put("family", b -> b.family(AddressFamily.IPV4));
        one.put("sizes", b -> b.sizes(List.of(32)));
        one.put("policy", b -> b.policy(IterationPolicy.DEFAULT));
        one.put("clientMuxer", b -> b.clientMuxer(Muxer.BACKOFF));
        one.put("serverMuxer", b -> b.serverMuxer(Muxer.BLOCKING));
        one.put("noDelay", b -> b.noDelay(true));
        one.put("sendBufferBytes", b -> b.sendBufferBytes(0));
        one.put("receiveBufferBytes", b -> b.receiveBufferBytes(0));
        one.put("trafficClass", b -> b.trafficClass(0));
        one.put("timeout", b -> b.timeout(Duration.ofSeconds(4)));
        one.put("percentile", b -> b.percentile(50));
        one.put("mode", b -> b.mode(LatencyMode.HALF_RTT));
        one.put("idle", b -> b.idle(null));
        one.put("fullLog", b -> b.fullLog(null));
        one.put("endpoint", b -> b.endpoint(Endpoint.loopback()));
        one.put("multicast", b -> b.multicast(group));
        one.put("connect", b -> b.connect(true));
        one.put("affinity", b -> b.affinity(Affinity.parse("0;1")));
        one.put("bindToDevice", b -> b.bindToDevice("lo"));
        eachAlone(s, PingPongSpec::toBuilder, PingPongSpec.Builder::build, one);
        assertThat(names(one)).isEqualTo(components(PingPongSpec.class));
    }

    @Test
    void anRrSpecRoundTripsAndChangesOneValueAtATime() {
        RrSpec s = RrSpec.builder().family(AddressFamily.IPV6).flows(4).requestBytes(100).responseBytes(200)
                .duration(Duration.ofSeconds(3)).warmup(Duration.ofMillis(100)).crr(true).rate(1000).noDelay(false)
                .timeout(Duration.ofSeconds(5)).percentile(99.9).muxer(Muxer.BACKOFF).idle(Idle.SLEEP).endpoint(PEER)
                .build();
        assertThat(s.toBuilder().build()).isEqualTo(s);
        Map<String, UnaryOperator<RrSpec.Builder>> one = new LinkedHashMap<>();
        one.put("family", b -> b.family(AddressFamily.IPV4));
        one.put("flows", b -> b.flows(5));
        one.put("requestBytes", b -> b.requestBytes(101));
        one.put("responseBytes", b -> b.responseBytes(201));
        one.put("duration", b -> b.duration(Duration.ofSeconds(4)));
        one.put("warmup", b -> b.warmup(Duration.ZERO));
        one.put("crr", b -> b.crr(false));
        one.put("rate", b -> b.rate(0));
        one.put("noDelay", b -> b.noDelay(true));
        one.put("timeout", b -> b.timeout(Duration.ofSeconds(6)));
        one.put("percentile", b -> b.percentile(90));
        one.put("muxer", b -> b.muxer(Muxer.SPIN));
        one.put("idle", b -> b.idle(null));
        one.put("endpoint", b -> b.endpoint(Endpoint.loopback()));
        eachAlone(s, RrSpec::toBuilder, RrSpec.Builder::build, one);
        assertThat(names(one)).isEqualTo(components(RrSpec.class));
    }

    @Test
    void aRawTransferSpecRoundTripsAndChangesOneValueAtATime() {
        RawTransferSpec both = RawTransferSpec.builder("lrt0a", "lrt0b").etherTypes(List.of(0x88b5, 0x88b6)).frameSize(200)
                .destinationMac(new byte[] {2, 0, 0, 0, 0, 1}).sourceMac(new byte[] {2, 0, 0, 0, 0, 2})
                .rateBitsPerSecond(20_000_000).duration(Duration.ofMillis(1500)).warmup(Duration.ofMillis(300))
                .interval(Duration.ofMillis(500)).batch(8).steer(true).allowUnsteered(true).hardwareTimestamps(false)
                .retireTimeout(Duration.ofMillis(20)).drainTimeout(Duration.ofMillis(700)).txRing(true).idle(Idle.BACKOFF)
                .unpaced(true).build();
        RawTransferSpec remote = RawTransferSpec.txOnly("lrt0a").endpoint(PEER).peerInterface("eth1").build();
        RawTransferSpec rxOnly = RawTransferSpec.rxOnly("lrt0b").build();
        for (RawTransferSpec s : List.of(both, remote, rxOnly)) {
            RawTransferSpec back = s.toBuilder().build();
            assertThat(back).usingRecursiveComparison().withStrictTypeChecking().isEqualTo(s);
        }
        Map<String, UnaryOperator<RawTransferSpec.Builder>> one = new LinkedHashMap<>();
        one.put("etherTypes", b -> b.etherTypes(List.of(0x88b5)));
        one.put("frameSize", b -> b.frameSize(201));
        one.put("destinationMac", b -> b.destinationMac(new byte[] {2, 0, 0, 0, 0, 3}));
        one.put("sourceMac", b -> b.sourceMac(null));
        one.put("rateBitsPerSecond", b -> b.rateBitsPerSecond(0));
        one.put("duration", b -> b.duration(Duration.ofSeconds(2)));
        one.put("warmup", b -> b.warmup(Duration.ZERO));
        one.put("interval", b -> b.interval(Duration.ofMillis(100)));
        one.put("batch", b -> b.batch(64));
        one.put("steer", b -> b.steer(false));
        one.put("allowUnsteered", b -> b.allowUnsteered(false));
        one.put("hardwareTimestamps", b -> b.hardwareTimestamps(true));
        one.put("retireTimeout", b -> b.retireTimeout(Duration.ofMillis(10)));
        one.put("drainTimeout", b -> b.drainTimeout(Duration.ofSeconds(1)));
        one.put("txRing", b -> b.txRing(false));
        one.put("idle", b -> b.idle(null));
        one.put("unpaced", b -> b.unpaced(false));
        eachAlone(both, RawTransferSpec::toBuilder, RawTransferSpec.Builder::build, one);
        // the peer's end exists only with a remote endpoint, and a remote run has one end here
        Map<String, UnaryOperator<RawTransferSpec.Builder>> peer = new LinkedHashMap<>();
        peer.put("endpoint", b -> b.endpoint(Endpoint.remote("198.18.0.3", 5201)));
        peer.put("peerInterface", b -> b.peerInterface("eth2"));
        eachAlone(remote, RawTransferSpec::toBuilder, RawTransferSpec.Builder::build, peer);
        one.putAll(peer);
        // the interfaces are fixed by the factory a builder comes from (builder, txOnly, rxOnly): kept, never changed
        Set<String> fixed = Set.of("txInterface", "rxInterface");
        assertThat(remote.toBuilder().frameSize(100).build().txInterface()).contains("lrt0a");
        assertThat(rxOnly.toBuilder().frameSize(100).build().rxInterface()).contains("lrt0b");
        Set<String> covered = new TreeSet<>(names(one));
        covered.addAll(fixed);
        assertThat(covered).isEqualTo(components(RawTransferSpec.class));
    }

    @Test
    void aSearchSpecRoundTripsAndChangesOneValueAtATime() {
        SearchSpec s = SearchSpec.builder().minBitsPerSecond(1_000_000).maxBitsPerSecond(90_000_000)
                .resolution(Resolution.absolute(100_000)).maxTrials(12).lossTolerancePercent(0.5).confirm(2)
                .trialsPerLoad(5).trial(Duration.ofSeconds(3)).interval(Duration.ofMillis(250))
                .warmup(Duration.ofMillis(100)).build();
        assertThat(s.toBuilder().build()).usingRecursiveComparison().withStrictTypeChecking().isEqualTo(s);
        Map<String, UnaryOperator<SearchSpec.Builder>> one = new LinkedHashMap<>();
        one.put("minBitsPerSecond", b -> b.minBitsPerSecond(0));
        one.put("maxBitsPerSecond", b -> b.maxBitsPerSecond(80_000_000));
        one.put("resolution", b -> b.resolution(Resolution.DEFAULT));
        one.put("maxTrials", b -> b.maxTrials(30));
        one.put("lossTolerancePercent", b -> b.lossTolerancePercent(0));
        one.put("confirm", b -> b.confirm(1));
        one.put("trialsPerLoad", b -> b.trialsPerLoad(3));
        one.put("trial", b -> b.trial(Duration.ofSeconds(4)));
        one.put("interval,givenInterval", b -> b.interval(Duration.ofMillis(300)));
        one.put("warmup", b -> b.warmup(Duration.ZERO));
        eachAlone(s, SearchSpec::toBuilder, SearchSpec.Builder::build, one);
        assertThat(names(one)).isEqualTo(instanceFields(SearchSpec.class));
    }

    @Test
    void aSearchIntervalNotGivenStaysATenthOfTheTrial() {
        SearchSpec derived = SearchSpec.builder().trial(Duration.ofSeconds(2)).build();
        assertThat(derived.interval()).isEqualTo(Duration.ofMillis(200));
        // 5 s / 10 = 500 ms: the interval follows the new trial, as a builder without one would make it
        assertThat(derived.toBuilder().trial(Duration.ofSeconds(5)).build().interval()).isEqualTo(Duration.ofMillis(500));
        SearchSpec given = derived.toBuilder().interval(Duration.ofMillis(250)).build();
        assertThat(given.toBuilder().trial(Duration.ofSeconds(5)).build().interval()).isEqualTo(Duration.ofMillis(250));
    }

    /**
     * For each entry, applies the change to {@code base.toBuilder()} and asserts that the spec
     * built differs from {@code base} in the entry's fields (a comma-separated key) and nowhere else.
     */
    private static <S, B> void eachAlone(S base, Function<S, B> toBuilder, Function<B, S> build,
                                         Map<String, UnaryOperator<B>> changes) {
        changes.forEach((fields, change) -> {
            S changed = build.apply(change.apply(toBuilder.apply(base)));
            assertThat(changed).as("changing %s", fields).usingRecursiveComparison().withStrictTypeChecking()
                    .ignoringFields(fields.split(",")).isEqualTo(base);
            assertThat(changed).as("changing %s", fields).usingRecursiveComparison().withStrictTypeChecking().isNotEqualTo(base);
        });
    }

    private static Set<String> names(Map<String, ?> changes) {
        return changes.keySet().stream().flatMap(k -> Arrays.stream(k.split(","))).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> components(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> instanceFields(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields()).filter(f -> !Modifier.isStatic(f.getModifiers())).map(Field::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
