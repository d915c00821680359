package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.afpacket.AfPacket;
import io.linerate.afpacket.AfPacketTransport;
import io.linerate.afpacket.FrameCount;
import io.linerate.afpacket.RawStreamResult;
import io.linerate.afpacket.RawStreamRx;
import io.linerate.afpacket.RawStreamTx;
import io.linerate.afpacket.RingStatistics;
import io.linerate.afpacket.CounterEvent;
import io.linerate.afpacket.NicCounter;
import io.linerate.afpacket.NicCounters;
import io.linerate.afpacket.RawReceiverReport;
import io.linerate.afpacket.RawResult;
import io.linerate.afpacket.RawSenderReport;
import io.linerate.afpacket.RawSteering;
import io.linerate.core.RawTransferSpec;
import io.linerate.afpacket.Timestamping;
import io.linerate.testsupport.VethPair;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class RawCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Outcome(int code, String out, String err) {}

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Linerate.commandLine(new RawCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void anEthertypeBelow0x0600IsAUsageErrorNamingIt() {
        Outcome o = run("--tx", "a0", "--rx", "b0", "--ethertypes", "0x88b5,0x0500");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("ethertype '0x0500' is out of range; allowed: 0x0600..0xffff").doesNotContain("\tat ");
    }

    @Test
    void aFrameSizeOutOfRangeIsAUsageErrorNamingIt() {
        Outcome o = run("--tx", "a0", "--rx", "b0", "--frame-size", "20");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("frame size 20 bytes is out of range; allowed: 60..MTU+14").doesNotContain("\tat ");
    }

    @Test
    void peerOptionsThatDoNotFitAreUsageErrorsBeforeAnyAgentIsContacted() {
        // port 1 has no agent: a refusal after connecting would be exit 1, "connection refused"
        Outcome noIf = run("--tx", "a0", "--peer", "127.0.0.1:1");
        assertThat(noIf.code()).isEqualTo(2);
        assertThat(noIf.err()).contains("--peer needs --peer-interface IF, the agent's interface at the other end");
        Outcome both = run("--tx", "a0", "--rx", "b0", "--peer", "127.0.0.1:1", "--peer-interface", "eth1");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("with --peer this host runs one end: give --tx (the agent receives on eth1) or "
                + "--rx (the agent sends from it), not both");
        Outcome noPeer = run("--tx", "a0", "--rx", "b0", "--peer-interface", "eth1");
        assertThat(noPeer.code()).isEqualTo(2);
        assertThat(noPeer.err()).contains("--peer-interface and --secret-file apply with --peer HOST:PORT only");
        Outcome badPeer = run("--tx", "a0", "--peer", "nohostport", "--peer-interface", "eth1");
        assertThat(badPeer.code()).isEqualTo(2);
        assertThat(badPeer.err()).contains("peer 'nohostport' is not HOST:PORT");
    }

    @Test
    void otherBadValuesAreUsageErrors() {
        assertThat(run("--tx", "a0", "--rx", "b0", "--batch", "0").err()).contains("batch 0 is out of range; allowed: 1..1024");
        assertThat(run("--tx", "a0", "--rx", "b0", "--dst-mac", "01:02").err()).contains("MAC '01:02' is not valid");
        assertThat(run("--tx", "a0", "--rx", "b0", "--ethertypes", "0x88b5,0x88b5").err()).contains("ethertype 0x88b5 is given twice");
        Outcome none = run("--frame-size", "60");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("no interface given; allowed: --tx IF, --rx IF or both");
        Outcome noMac = run("--tx", "a0");
        assertThat(noMac.code()).isEqualTo(2);
        assertThat(noMac.err()).contains("--tx without --rx needs --dst-mac MAC");
        assertThat(run("--tx", "a0", "--dst-mac", "02:00:00:00:00:02", "--steer").err())
                .contains("steering installs rules on the RX interface, and this run has none");
        assertThat(run("--tx", "a0", "--rx", "b0", "--ktap", "--json").code()).isEqualTo(2);
        Outcome idle = run("--tx", "a0", "--rx", "b0", "--idle", "spin");
        assertThat(idle.code()).isEqualTo(2);
        assertThat(idle.err()).contains("unknown idle strategy 'spin'; allowed: busy, yield, backoff, sleep");
    }

    @Test
    void aStreamThatSentNoFrameInTheWindowReportsNoLossRatherThanZero() throws IOException {
        // stream 1 sent nothing in the window (too slow a rate for it); stream 2 sent 100 and got 100
        RawTransferSpec spec = RawTransferSpec.builder("a0", "b0").etherTypes(List.of(0x88b5, 0x88b6)).build();
        RawStreamResult idle = stream(1, 0x88b5, 0, 0);
        RawStreamResult busy = stream(2, 0x88b6, 100, 100);
        RawResult r = new RawResult(spec, List.of(idle, busy), 1_000_000_000L, Optional.empty(), Optional.empty(), false,
                List.of("stream 1 (ethertype 0x88b5): no frame was sent in the measured window"), Optional.empty());

        assertThat(idle.lossPercent()).isEmpty();
        // 0 of 100 lost: 0 %, a real figure
        assertThat(busy.lossPercent()).hasValue(0.0);
        assertThat(r.metrics()).filteredOn(m -> m.name().equals("raw_lost_frames"))
                .singleElement().satisfies(m -> assertThat(m.labels()).containsEntry("ethertype", "0x88b6"));
        JsonNode streams = JSON.readTree(r.detailJson().toJson()).get("streams");
        assertThat(streams.get(0).get("lost").isNull()).isTrue();
        assertThat(streams.get(1).get("lost").asLong()).isZero();
        assertThat(RawFormat.streamLine(idle)).contains("lost n/a");
        assertThat(RawFormat.streamLine(busy)).contains("lost 0,");
    }

    private static RawStreamResult stream(int id, int etherType, long tx, long rx) {
        RawStreamTx sent = new RawStreamTx(new FrameCount(tx, tx * 64), new FrameCount(tx + 10, (tx + 10) * 64),
                OptionalDouble.of(tx), OptionalDouble.of(tx * 512.0));
        RawStreamRx got = new RawStreamRx(new FrameCount(rx, rx * 64), new FrameCount(rx + 10, (rx + 10) * 64), 0, 0, 0,
                new RingStatistics(rx + 10, 0), OptionalDouble.of(rx), OptionalDouble.of(rx * 512.0));
        return new RawStreamResult(id, etherType, 64, -1, Optional.of(sent), Optional.of(got), OptionalLong.of(tx - rx),
                OptionalLong.of(0));
    }

    @Test
    void withOneEndLossIsUnknownNotZero() throws IOException {
        // a sender alone: 100 frames of 64 bytes in the window, 110 in all
        RawStreamTx t = new RawStreamTx(new FrameCount(100, 6400), new FrameCount(110, 7040), OptionalDouble.of(100),
                OptionalDouble.of(51_200));
        RawStreamResult s = new RawStreamResult(0, 0x88b5, 64, -1, Optional.of(t), Optional.empty(), OptionalLong.empty(),
                OptionalLong.empty());
        RawResult r = new RawResult(RawTransferSpec.txOnly("a0").destinationMac(new byte[] {2, 0, 0, 0, 0, 2}).build(),
                List.of(s), 1_000_000_000L, Optional.of(new RawSenderReport(0, 0, 0, Optional.empty())), Optional.empty(),
                true, List.of(), Optional.empty());
        assertThat(s.lossPercent()).isEmpty();
        assertThat(r.metrics()).extracting(io.linerate.core.Metric::name)
                .containsExactly("raw_tx_frames_per_s", "raw_sender_cpu");
        JsonNode j = JSON.readTree(r.detailJson().toJson());
        assertThat(j.get("rx").isNull()).isTrue();
        assertThat(j.get("loss_unknown").asText()).startsWith("loss is unknown: this run had no receiver");
        assertThat(j.get("streams").get(0).get("lost").isNull()).isTrue();
        assertThat(j.get("streams").get(0).get("rx_frames").isNull()).isTrue();
        assertThat(j.get("streams").get(0).get("tx_frames").asLong()).isEqualTo(100);
        assertThat(RawFormat.streamLine(s)).contains("lost unknown (one end only)").contains("rx - (no receiver in this run)");
    }

    @Test
    void counterGlitchesAndResetsAreReportedInJsonNamingTheCounter() throws IOException {
        // rx side: rx_packets glitched once (ambiguous) and tx_bytes of the tx side reset once;
        // events are indexed event.ordinal() * 8 + counter.ordinal()
        int n = NicCounter.values().length;
        long[] rxEvents = new long[CounterEvent.values().length * n];
        rxEvents[CounterEvent.GLITCH.ordinal() * n + NicCounter.RX_PACKETS.ordinal()] = 1;
        rxEvents[CounterEvent.AMBIGUOUS.ordinal() * n + NicCounter.RX_PACKETS.ordinal()] = 1;
        long[] txEvents = new long[CounterEvent.values().length * n];
        txEvents[CounterEvent.RESET.ordinal() * n + NicCounter.TX_BYTES.ordinal()] = 1;
        // the same reset fitted a 32-bit wrap too (the smaller motion, the reset, was counted)
        txEvents[CounterEvent.POSSIBLE_WRAP.ordinal() * n + NicCounter.TX_BYTES.ordinal()] = 1;
        NicCounters.Delta tx = new NicCounters.Delta("a0", 1_000_000, new long[n], txEvents, Set.of(NicCounter.TX_PACKETS));
        NicCounters.Delta rx = new NicCounters.Delta("b0", 1_000_000, new long[n], rxEvents, Set.of());
        RawResult r = new RawResult(RawTransferSpec.builder("a0", "b0").build(), List.of(), 0,
                Optional.of(new RawSenderReport(0, 0, 0, Optional.of(tx))),
                Optional.of(new RawReceiverReport(0, Timestamping.NONE, RawSteering.notRequested(), Optional.of(rx), List.of())),
                true, List.of(), Optional.empty());
        JsonNode j = JSON.readTree(r.detailJson().toJson());
        assertThat(j.get("rx_nic").get("events").toString()).isEqualTo("{\"rx_packets\":{\"glitches\":1,\"ambiguous\":1}}");
        assertThat(j.get("tx_nic").get("events").toString()).isEqualTo("{\"tx_bytes\":{\"possible_wraps\":1,\"resets\":1}}");
        assertThat(j.get("tx_nic").get("in_doubt").toString()).isEqualTo("[\"tx_packets\"]");
        assertThat(r.counterNotes()).containsExactly(
                "a0 tx_packets: in doubt (a reading below the one before it awaits the next; the low reading is left out)",
                "a0 tx_bytes: 1 reset (motion around a reset is not counted), 1 possible 32-bit wrap (in doubt: the link "
                        + "could have carried 2^32 more; the smallest motion is counted, the total may be low)",
                "b0 rx_packets: 1 glitch (1 ambiguous: a reset followed by traffic fits too; counted as a glitch, "
                        + "the total may be low)");
    }

    @Test
    void theTransportIsPickedThroughTheSpiAndAWrongOneIsAUsageErrorSayingWhy() {
        Outcome nio = run("--transport", "nio", "--tx", "a0", "--rx", "b0");
        assertThat(nio.code()).isEqualTo(2);
        assertThat(nio.err()).contains("transport 'nio' cannot run").contains("runs [ping-pong, request-response, stream], not raw-frames")
                .doesNotContain("\tat ");
        Outcome none = run("--transport", "nope", "--tx", "a0", "--rx", "b0");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("no transport named 'nope'; available: ").contains("afpacket");
    }

    @Test
    void transportsListsAfpacketWithItsAvailability() {
        LinerateCliTest.Run r = LinerateCliTest.linerate("transports");
        AfPacketTransport afpacket = new AfPacketTransport();
        // as root on Linux with the library built, as the build's own tests run: available; otherwise the cause
        String expected = afpacket.isAvailable() ? "afpacket\tavailable"
                : "afpacket\tunavailable: " + afpacket.unavailabilityCause().orElseThrow();
        assertThat(r.lines()).contains(expected, "nio\tavailable");
    }

    @Test
    void anUnknownInterfaceIsAUsageError() {
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        Outcome o = run("--tx", "lrtnosuch0", "--rx", "lrtnosuch1");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("interface lrtnosuch0 does not exist");
    }

    @Test
    void unpacedNeedsBothEndsHere() {
        Outcome txOnly = run("--tx", "a0", "--dst-mac", "02:00:00:00:00:02", "--unpaced");
        assertThat(txOnly.code()).isEqualTo(2);
        assertThat(txOnly.err()).contains("--unpaced applies when --tx and --rx both run here");
        Outcome remote = run("--tx", "a0", "--peer", "127.0.0.1:1", "--peer-interface", "eth1", "--unpaced");
        assertThat(remote.code()).isEqualTo(2);
        assertThat(remote.err()).contains("--unpaced applies when --tx and --rx both run here");
    }

    @Test
    void aRunWithBothEndsHereSaysItWasPacedByCreditAndAnUnpacedOneByNothing() throws Exception {
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        VethPair veth = VethPair.create('p');
        try {
            Outcome paced = run("--tx", veth.a, "--rx", veth.b, "--frame-size", "1014", "--duration", "200ms",
                    "--warmup", "0", "--interval", "100ms");
            assertThat(paced.err()).isEmpty();
            assertThat(paced.out()).containsPattern("\\n# pacing: credit \\(receiver credit [0-9]+ frames in flight per stream, "
                    + "ring holds [0-9]+; waited for credit [0-9]+ times; at most [0-9]+ in flight\\)\\n");
            Outcome unpaced = run("--tx", veth.a, "--rx", veth.b, "--frame-size", "1014", "--duration", "200ms",
                    "--warmup", "0", "--interval", "100ms", "--unpaced", "--json");
            JsonNode p = JSON.readTree(unpaced.out()).get("detail").get("pacing");
            assertThat(p.get("governed").asText()).isEqualTo("none");
            assertThat(p.get("credit_frames").isNull()).isTrue();
        } finally {
            veth.close();
        }
    }

    @Test
    void aRunAcrossAVethPairPrintsJsonWithEveryFrameCounted() throws Exception {
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        VethPair veth = VethPair.create('c');
        try {
            Outcome o = run("--tx", veth.a, "--rx", veth.b, "--ethertypes", "0x88b5,0x88b6", "--frame-size", "256",
                    "--rate", "20M", "--duration", "300ms", "--warmup", "100ms", "--batch", "8", "--json");
            assertThat(o.err()).isEmpty();
            assertThat(o.code()).isZero();
            JsonNode result = JSON.readTree(o.out());
            // the one result shape of every pattern, the raw run's own fields under "detail"
            assertThat(result.get("format").asText()).isEqualTo("linerate-result");
            assertThat(result.get("pattern").asText()).isEqualTo("raw-frames");
            assertThat(result.get("valid").asBoolean()).isTrue();
            assertThat(result.get("invalid_reasons")).isEmpty();
            // rx frames/s, rx bit/s, tx frames/s and lost frames for each of 2 streams, then 2 CPU times: 4 x 2 + 2
            assertThat(result.get("metrics")).hasSize(10);
            JsonNode n = result.get("detail");
            assertThat(n.get("valid").asBoolean()).isTrue();
            assertThat(n.get("reasons")).isEmpty();
            assertThat(n.get("streams")).hasSize(2);
            for (JsonNode s : n.get("streams")) {
                long tx = s.get("tx_frames").asLong();
                assertThat(tx).isPositive();
                assertThat(s.get("rx_frames").asLong()).isEqualTo(tx);
                assertThat(s.get("tx_bytes").asLong()).isEqualTo(tx * 256);
                assertThat(s.get("rx_bytes").asLong()).isEqualTo(tx * 256);
                assertThat(s.get("lost").asLong()).isZero();
                assertThat(s.get("frames_per_s").asDouble()).isPositive();
                assertThat(s.get("bits_per_s").asDouble()).isPositive();
            }
            long totalTx = 0;
            for (JsonNode s : n.get("streams")) {
                totalTx += s.get("tx_frames_total").asLong();
            }
            assertThat(n.get("tx_nic").get("tx_packets").asLong()).isEqualTo(totalTx);

            Outcome k = run("--tx", veth.a, "--rx", veth.b, "--frame-size", "128", "--rate", "10M",
                    "--duration", "200ms", "--warmup", "0", "--idle", "backoff", "--ktap");
            assertThat(k.code()).isZero();
            assertThat(k.out()).startsWith("KTAP version 1\n1..1\n").contains("# ktap-metric-json: ")
                    .contains("\"name\":\"raw_rx_frames_per_s\"").contains("\nok 1 raw\n")
                    .endsWith("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0\n");
            assertThat(KtapGateReaderTest.gateReadsEveryMetricUnder(k.out(), "raw")).contains("raw_rx_frames_per_s");

            // one end only: the sender reports what it sent and says loss is unknown
            Outcome txOnly = run("--tx", veth.a, "--dst-mac", "02:00:00:00:00:02", "--frame-size", "128", "--rate", "10M",
                    "--warmup", "100ms", "--duration", "300ms", "--batch", "8", "--json");
            assertThat(txOnly.code()).as(txOnly.err()).isZero();
            JsonNode t = JSON.readTree(txOnly.out()).get("detail");
            assertThat(t.get("rx").isNull()).isTrue();
            assertThat(t.get("valid").asBoolean()).isTrue();
            assertThat(t.get("loss_unknown").asText()).startsWith("loss is unknown: this run had no receiver");
            JsonNode ts = t.get("streams").get(0);
            assertThat(ts.get("lost").isNull()).isTrue();
            assertThat(ts.get("rx_frames").isNull()).isTrue();
            assertThat(ts.get("tx_frames").asLong()).isPositive();
            assertThat(t.get("tx_nic").get("tx_packets").asLong()).isEqualTo(ts.get("tx_frames_total").asLong());
            // a receiver alone, with nothing sending, counts nothing: not valid, and loss is still unknown, not 0
            Outcome rxOnly = run("--rx", veth.b, "--frame-size", "128", "--warmup", "0", "--duration", "200ms", "--json");
            assertThat(rxOnly.code()).isEqualTo(1);
            JsonNode rxResult = JSON.readTree(rxOnly.out());
            assertThat(rxResult.get("valid").asBoolean()).isFalse();
            assertThat(rxResult.get("invalid_reasons").toString()).contains("no frame of a sender's measured window arrived");
            JsonNode x = rxResult.get("detail");
            assertThat(x.get("tx").isNull()).isTrue();
            assertThat(x.get("loss_unknown").asText()).startsWith("loss is unknown: this run had no sender");
            assertThat(x.get("streams").get(0).get("lost").isNull()).isTrue();
            assertThat(x.get("streams").get(0).get("rx_frames").asLong()).isZero();
            assertThat(x.get("reasons").toString()).contains("no frame of a sender's measured window arrived");

            Outcome steer = run("--tx", veth.a, "--rx", veth.b, "--steer", "--duration", "100ms");
            assertThat(steer.code()).isEqualTo(2);
            assertThat(steer.err()).contains(veth.b).contains("EOPNOTSUPP").contains("driver veth");
        } finally {
            veth.close();
        }
        assertThat(Files.exists(Path.of("/sys/class/net", veth.a))).isFalse();
    }
}
