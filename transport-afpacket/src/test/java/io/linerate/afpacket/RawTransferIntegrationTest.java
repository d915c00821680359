package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.Clock;
import io.linerate.core.TransferException;
import io.linerate.testsupport.VethPair;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Raw transfers across a veth pair this test creates (needs root and Linux). The library's counts
 * are checked against the kernel's interface counters over the run.
 */
class RawTransferIntegrationTest {

    @BeforeAll
    static void needsRawSockets() {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "raw transfers need Linux");
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        assumeTrue(Files.isWritable(Path.of("/proc/sys/net/ipv6/conf/all")) || Files.exists(Path.of("/sys/class/net/lo")),
                "needs /sys and /proc");
    }

    private static RawTransferSpec.Builder paced(VethPair v, int frameSize, List<Integer> etherTypes) {
        // 20 000 frames/s in total: far below what two shared cores move, so a clean path loses nothing.
        return RawTransferSpec.builder(v.a, v.b)
                .etherTypes(etherTypes)
                .frameSize(frameSize)
                .rateBitsPerSecond(20_000L * frameSize * 8)
                .batch(16)
                .duration(Duration.ofMillis(400))
                .warmup(Duration.ZERO)
                .interval(Duration.ofMillis(200))
                .hardwareTimestamps(false);
    }

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of(60, List.of(0x88b5), false),
                Arguments.of(1514, List.of(0x88b5, 0x88b6), false),
                Arguments.of(1000, List.of(0x88b7, 0x0900, 0xffff), false),
                Arguments.of(60, List.of(0x88b5, 0x88b6), true),
                Arguments.of(1514, List.of(0x0600), true));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void countsEqualTheKernelsInterfaceCounters(int frameSize, List<Integer> etherTypes, boolean txRing) throws Exception {
        try (VethPair v = VethPair.create()) {
            RawResult r = RawTransfer.run(paced(v, frameSize, etherTypes).txRing(txRing).build());

            assertThat(r.error()).isEmpty();
            assertThat(r.reasons()).isEmpty();
            assertThat(r.valid()).isTrue();
            assertThat(r.streams()).hasSize(etherTypes.size());
            long txFrames = r.txFramesTotal().orElseThrow();
            long rxFrames = r.rxFramesTotal().orElseThrow();
            assertThat(txFrames).isPositive();
            NicCounters.Delta tx = r.txNic().orElseThrow();
            NicCounters.Delta rx = r.rxNic().orElseThrow();
            assertThat(tx.get(NicCounter.TX_PACKETS)).isEqualTo(txFrames);
            assertThat(tx.get(NicCounter.TX_BYTES)).isEqualTo(r.streams().stream().mapToLong(s -> tx(s).total().bytes()).sum());
            assertThat(rx.get(NicCounter.RX_PACKETS)).isEqualTo(rxFrames);
            assertThat(rx.get(NicCounter.RX_BYTES)).isEqualTo(r.streams().stream().mapToLong(s -> rx(s).total().bytes()).sum());
            assertThat(rxFrames).isEqualTo(txFrames);
            // a veth pair's counters only move forward: no glitch, wrap or reset, none in doubt
            assertThat(tx.clean()).as("tx counter notes %s", tx.notes()).isTrue();
            assertThat(rx.clean()).as("rx counter notes %s", rx.notes()).isTrue();
            assertThat(r.counterNotes()).isEmpty();
            for (RawStreamResult s : r.streams()) {
                RawStreamTx t = tx(s);
                RawStreamRx x = rx(s);
                assertThat(s.frameSize()).isEqualTo(frameSize);
                assertThat(s.lost()).hasValue(0);
                assertThat(x.duplicates()).isZero();
                assertThat(x.window().frames()).isEqualTo(t.window().frames());
                assertThat(t.window().bytes()).isEqualTo(t.window().frames() * frameSize);
                assertThat(x.window().bytes()).isEqualTo(x.window().frames() * frameSize);
                assertThat(x.ring().drops()).isZero();
                assertThat(x.ring().packets()).isEqualTo(x.total().frames());
                assertThat(x.foreignFrames()).isZero();
                assertThat(t.framesPerSecond()).isPresent();
                assertThat(s.queue()).isEqualTo(-1);
            }
            assertThat(r.receiver().orElseThrow().timestamping()).isEqualTo(Timestamping.SOFTWARE);
            assertThat(r.receiver().orElseThrow().steering().steered()).isFalse();
            // rates are the window's frames over the whole window, not the span between two sends
            assertThat(r.measuredNanos()).isEqualTo(Duration.ofMillis(400).toNanos());
            for (RawStreamResult s : r.streams()) {
                assertThat(tx(s).framesPerSecond().orElseThrow()).isCloseTo(tx(s).window().frames() / 0.4, org.assertj.core.data.Offset.offset(1e-6));
            }
            // Rate buckets from per-frame RX stamps hold every frame exactly once.
            List<StampInterval> stamps = r.receiver().orElseThrow().intervals();
            // (how many buckets depends on when the frames left: a sender held off the CPU for the
            // first half of the run sends inside one 200 ms bucket)
            assertThat(stamps).isNotEmpty();
            assertThat(stamps.stream().mapToLong(StampInterval::frames).sum()).isEqualTo(rxFrames);
            assertThat(stamps.get(0).startSeconds()).isZero();
        }
        assertThat(leftoverVeths()).isEmpty();
    }

    @Test
    void theWarmupIsLeftOutOfTheMeasuredWindowButNotOutOfTheTotals() throws Exception {
        try (VethPair v = VethPair.create()) {
            java.util.List<RawInterval> intervals = new java.util.ArrayList<>();
            RawResult r = RawTransfer.run(paced(v, 128, List.of(0x88b5)).warmup(Duration.ofMillis(200)).build(),
                    io.linerate.core.Clock.system(), intervals::add);
            assertThat(r.valid()).isTrue();
            // the warm-up's end is an interval boundary: no interval straddles warm-up and window
            assertThat(intervals).anyMatch(RawInterval::omitted).anyMatch(i -> !i.omitted());
            assertThat(intervals).allMatch(i -> i.omitted() == (i.startSeconds() < 0.2));
            assertThat(intervals).filteredOn(RawInterval::omitted).last()
                    .satisfies(i -> assertThat(i.endSeconds()).isGreaterThanOrEqualTo(0.2));
            RawStreamTx s = tx(r.streams().get(0));
            RawStreamRx x = rx(r.streams().get(0));
            assertThat(s.window().frames()).isPositive().isLessThan(s.total().frames());
            // the window paces on a schedule of its own from its start, whatever the warm-up owed:
            // 20,000 frames/s for 0.4 s is 8000 frames, and a batch of 16 may leave at the last
            // deadline: never more than 8016 however busy the host
            assertThat(s.window().frames()).isLessThanOrEqualTo(8_016);
            assertThat(x.window().frames()).isEqualTo(s.window().frames());
            assertThat(r.txNic().orElseThrow().get(NicCounter.TX_PACKETS)).isEqualTo(s.total().frames());
            assertThat(r.rxNic().orElseThrow().get(NicCounter.RX_PACKETS)).isEqualTo(x.total().frames());
        }
    }

    @Test
    void aSenderAloneAndAReceiverAloneAtOnceCountTheSameFramesAsTheInterfaces() throws Exception {
        try (VethPair v = VethPair.create()) {
            long fds = openFds();
            int frameSize = 200;
            // The receiver listens for 3 s; the sender starts once the receiver's rings are open (its
            // first interval sample comes after that) and is done 0.5 s later, well inside the 3 s.
            RawTransferSpec rxSpec = RawTransferSpec.rxOnly(v.b).etherTypes(List.of(0x88b5, 0x88b6)).frameSize(frameSize)
                    .warmup(Duration.ZERO).duration(Duration.ofSeconds(3)).interval(Duration.ofMillis(50))
                    .hardwareTimestamps(false).build();
            RawTransferSpec txSpec = RawTransferSpec.txOnly(v.a).destinationMac(new byte[] {2, 0, 0, 0, 0, 2})
                    .etherTypes(List.of(0x88b5, 0x88b6)).frameSize(frameSize).rateBitsPerSecond(20_000L * frameSize * 8)
                    .batch(16).warmup(Duration.ofMillis(100)).duration(Duration.ofMillis(400)).build();
            java.util.concurrent.CountDownLatch listening = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                java.util.concurrent.Future<RawResult> rxRun = pool.submit(() ->
                        RawTransfer.run(rxSpec, Clock.system(), i -> listening.countDown()));
                assertThat(listening.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                java.util.concurrent.Future<RawResult> txRun = pool.submit(() -> RawTransfer.run(txSpec));
                RawResult tx = txRun.get(60, java.util.concurrent.TimeUnit.SECONDS);
                RawResult rx = rxRun.get(60, java.util.concurrent.TimeUnit.SECONDS);

                assertThat(tx.valid()).as("tx reasons %s", tx.reasons()).isTrue();
                assertThat(rx.valid()).as("rx reasons %s", rx.reasons()).isTrue();
                assertThat(tx.receiver()).isEmpty();
                assertThat(rx.sender()).isEmpty();
                assertThat(tx.rxNic()).isEmpty();
                assertThat(rx.txNic()).isEmpty();
                long sent = tx.txFramesTotal().orElseThrow();
                assertThat(sent).isPositive();
                // the identities of a run with both ends hold across the two runs
                assertThat(rx.rxFramesTotal()).hasValue(sent);
                assertThat(tx.txNic().orElseThrow().get(NicCounter.TX_PACKETS)).isEqualTo(sent);
                assertThat(rx.rxNic().orElseThrow().get(NicCounter.RX_PACKETS)).isEqualTo(sent);
                // each frame carries its phase, so the receiver alone knows the sender's window
                assertThat(rx.rxFrames()).isEqualTo(tx.txFrames());
                assertThat(tx.txFrames().orElseThrow()).isPositive().isLessThan(sent);
                for (int i = 0; i < 2; i++) {
                    RawStreamResult t = tx.streams().get(i);
                    RawStreamResult r = rx.streams().get(i);
                    assertThat(t.rx()).isEmpty();
                    assertThat(r.tx()).isEmpty();
                    assertThat(rx(r).window().frames()).isEqualTo(tx(t).window().frames());
                    assertThat(rx(r).total().frames()).isEqualTo(tx(t).total().frames());
                    assertThat(rx(r).total().bytes()).isEqualTo(tx(t).total().frames() * frameSize);
                    assertThat(rx(r).framesPerSecond()).isPresent();
                    // loss needs both counts: neither end reports it, not even as 0
                    assertThat(t.lost()).isEmpty();
                    assertThat(r.lost()).isEmpty();
                    assertThat(t.warmupLost()).isEmpty();
                }
                assertThat(tx.lossUnknown()).hasValueSatisfying(m -> assertThat(m).contains("no receiver"));
                assertThat(rx.lossUnknown()).hasValueSatisfying(m -> assertThat(m).contains("no sender"));
            } finally {
                pool.shutdownNow();
            }
            assertThat(openFds()).isEqualTo(fds);
        }
    }

    @Test
    void steeringOnVethFailsClearlyAndARunWithoutItIsStillValid() throws Exception {
        try (VethPair v = VethPair.create()) {
            long fds = openFds();
            assertThatThrownBy(() -> RawTransfer.run(paced(v, 256, List.of(0x88b5)).steer(true).build()))
                    .isInstanceOfSatisfying(SteeringUnsupportedException.class, e -> {
                        assertThat(e.driver()).isEqualTo("veth");
                        assertThat(e.interfaceName()).isEqualTo(v.b);
                    })
                    .hasMessageContaining("on " + v.b + " failed: EOPNOTSUPP")
                    .hasMessageContaining("driver veth");
            assertThat(openFds()).isEqualTo(fds);

            RawResult r = RawTransfer.run(paced(v, 256, List.of(0x88b5)).steer(true).allowUnsteered(true).build());
            assertThat(r.receiver().orElseThrow().steering().steered()).isFalse();
            assertThat(r.receiver().orElseThrow().steering().note()).contains("driver veth");
            assertThat(r.valid()).isTrue();
            assertThat(r.rxFramesTotal().orElseThrow()).isEqualTo(r.txFramesTotal().orElseThrow()).isPositive();
        }
    }

    @Test
    void steeredRunsInstallOneRulePerEthertypeAndRemoveThemAfterwards() throws Exception {
        try (VethPair v = VethPair.create()) {
            FakeRxnfcTable table = new FakeRxnfcTable(FakeRxnfcTable.Profile.ICE, 64, 2).preinstall(63, 0x0800, 0);
            List<Long> rulesDuringRun = new ArrayList<>();
            RawResult r = RawTransfer.run(paced(v, 256, List.of(0x88b5, 0x88b6, 0x88b7)).steer(true).build(), Clock.system(),
                    i -> rulesDuringRun.add((long) table.rules.size()), table);
            assertThat(r.receiver().orElseThrow().steering().steered()).isTrue();
            assertThat(r.receiver().orElseThrow().steering().rules()).containsExactly(new FlowSteering.Installed(62, 0x88b5, 0),
                    new FlowSteering.Installed(61, 0x88b6, 1), new FlowSteering.Installed(60, 0x88b7, 0));
            assertThat(r.streams()).extracting(RawStreamResult::queue).containsExactly(0L, 1L, 0L);
            assertThat(rulesDuringRun).isNotEmpty().allSatisfy(n -> assertThat(n).isEqualTo(4L));
            assertThat(table.rules.keySet()).containsExactly(63L);
            assertThat(r.valid()).isTrue();
        }
    }

    @Test
    void aSteeringFailureHalfwayLeavesNoRuleAndNoSocket() throws Exception {
        try (VethPair v = VethPair.create()) {
            long fds = openFds();
            FakeRxnfcTable table = new FakeRxnfcTable(FakeRxnfcTable.Profile.MLX5, 64, 4).failInsert(2, 28);
            assertThatThrownBy(() -> RawTransfer.run(paced(v, 256, List.of(0x88b5, 0x88b6)).steer(true).build(), Clock.system(),
                    i -> { }, table))
                    .isInstanceOf(AfPacketException.class)
                    .hasMessageContaining("ETHTOOL_SRXCLSRLINS on " + v.b + " failed: ENOSPC");
            assertThat(table.rules).isEmpty();
            assertThat(openFds()).isEqualTo(fds);

            // A run that fails after the rules went in (here: its listener) removes them too.
            FakeRxnfcTable t2 = new FakeRxnfcTable(FakeRxnfcTable.Profile.I40E, 16, 4);
            assertThatThrownBy(() -> RawTransfer.run(paced(v, 256, List.of(0x88b5)).steer(true).duration(Duration.ofSeconds(30)).build(),
                    Clock.system(), i -> {
                        throw new IllegalStateException("stop");
                    }, t2)).hasMessage("stop");
            assertThat(t2.insertLocations).containsExactly(15L);
            assertThat(t2.rules).isEmpty();
            assertThat(openFds()).isEqualTo(fds);
        }
    }

    @Test
    void aRuleThatCannotBeRemovedIsAnErrorAndTheOthersAreStillRemoved() throws Exception {
        try (VethPair v = VethPair.create()) {
            long fds = openFds();
            FakeRxnfcTable table = new FakeRxnfcTable(FakeRxnfcTable.Profile.IGB, 16, 2).failDelete(15, 16);
            assertThatThrownBy(() -> RawTransfer.run(paced(v, 256, List.of(0x88b5, 0x88b6)).steer(true).build(), Clock.system(),
                    i -> { }, table))
                    .isInstanceOf(TransferException.class)
                    .hasMessageContaining("could not remove flow steering rules: ETHTOOL_SRXCLSRLDEL on " + v.b + " failed: EBUSY");
            assertThat(table.rules.keySet()).containsExactly(15L);
            assertThat(openFds()).isEqualTo(fds);
        }
    }

    @Test
    void badInterfacesAreUsageErrorsNamingTheValue() throws Exception {
        try (VethPair v = VethPair.create()) {
            assertThatThrownBy(() -> RawTransfer.run(RawTransferSpec.builder(v.a, "lrtnosuch0").build()))
                    .isInstanceOfSatisfying(TransferException.class, e -> assertThat(e.isUsageError()).isTrue())
                    .hasMessageContaining("interface lrtnosuch0 does not exist");
            assertThatThrownBy(() -> RawTransfer.run(RawTransferSpec.builder(v.a, v.b).frameSize(1515).build()))
                    .isInstanceOfSatisfying(TransferException.class, e -> assertThat(e.isUsageError()).isTrue())
                    .hasMessageContaining("frame size 1515 bytes does not fit interface " + v.a + " with MTU 1500; allowed: 60..1514");
            v.down(v.b);
            assertThatThrownBy(() -> RawTransfer.run(RawTransferSpec.builder(v.a, v.b).build()))
                    .hasMessageContaining("interface " + v.b + " is down");
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void anInterfaceGoingDownMidRunEndsItWithAnErrorPartialResultsAndNothingLeftOpen(boolean txRing) throws Exception {
        try (VethPair v = VethPair.create()) {
            long fds = openFds();
            List<RawInterval> seen = new ArrayList<>();
            RawResult r = RawTransfer.run(paced(v, 256, List.of(0x88b5)).txRing(txRing).duration(Duration.ofSeconds(30)).build(),
                    Clock.system(), i -> {
                        seen.add(i);
                        if (seen.size() == 1) {
                            try {
                                v.down(v.a);
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    });
            assertThat(r.valid()).isFalse();
            String call = txRing ? "send (PACKET_TX_RING)" : "sendmmsg";
            assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains(call + " on " + v.a + " failed: ENETDOWN"));
            assertThat(r.reasons()).anySatisfy(x -> assertThat(x).startsWith("the run ended early"));
            assertThat(r.txFramesTotal().orElseThrow()).isPositive();
            assertThat(openFds()).isEqualTo(fds);
        }
    }

    @Test
    void theReceivingInterfaceGoingDownEndsTheRunWithAnErrorNamingIt() throws Exception {
        try (VethPair v = VethPair.create()) {
            long fds = openFds();
            List<RawInterval> seen = new ArrayList<>();
            RawResult r = RawTransfer.run(paced(v, 256, List.of(0x88b5, 0x88b6)).duration(Duration.ofSeconds(30)).build(),
                    Clock.system(), i -> {
                        seen.add(i);
                        if (seen.size() == 1) {
                            try {
                                v.down(v.b);
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    });
            assertThat(r.valid()).isFalse();
            assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains("on " + v.b + " failed: ENETDOWN"));
            assertThat(r.rxFramesTotal().orElseThrow()).isPositive();
            assertThat(openFds()).isEqualTo(fds);
        }
    }

    @Test
    void aListenerThatThrowsStopsTheRunAndEverythingIsReleased() throws Exception {
        try (VethPair v = VethPair.create()) {
            long fds = openFds();
            assertThatThrownBy(() -> RawTransfer.run(paced(v, 256, List.of(0x88b5)).txRing(true).duration(Duration.ofSeconds(30)).build(),
                    Clock.system(), i -> {
                        throw new IllegalStateException("listener gave up");
                    }))
                    .isInstanceOf(IllegalStateException.class).hasMessage("listener gave up");
            assertThat(openFds()).isEqualTo(fds);
        }
    }

    private static RawStreamTx tx(RawStreamResult s) {
        return s.tx().orElseThrow();
    }

    private static RawStreamRx rx(RawStreamResult s) {
        return s.rx().orElseThrow();
    }

    /** Open sockets of this process: every AF_PACKET socket a run opens must be closed again. */
    private static long openFds() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.filter(p -> {
                try {
                    return Files.readSymbolicLink(p).toString().startsWith("socket:");
                } catch (IOException e) {
                    return false; // closed while listing
                }
            }).count();
        }
    }

    private static List<String> leftoverVeths() throws IOException {
        String prefix = "lrt" + ProcessHandle.current().pid() % 100_000 + "x";
        try (Stream<Path> s = Files.list(Path.of("/sys/class/net"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).toList();
        }
    }
}
