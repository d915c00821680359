package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.afpacket.AfPacket;
import io.linerate.testsupport.VethPair;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in the middle of {@code rr} and {@code raw}, as a user gives it: SIGINT to a
 * {@code linerate} JVM that is measuring ends it with exit code 130 and one whole document,
 * marked interrupted, holding what was counted until then; in {@code rr}'s warm-up the document
 * says that nothing was measured.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SigintRrRawProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Write calls that show transactions flowing: a JVM makes some hundreds to start, a 1-byte
     * request/response run two per transaction.
     */
    private static final long TRANSACTING_WRITES = 20_000;

    @TempDir
    Path tmp;

    private LinerateChildren children;

    @BeforeEach
    void children() {
        children = new LinerateChildren(tmp);
    }

    @AfterEach
    void killChildren() throws InterruptedException {
        children.close();
    }

    /** {@code rr} of a minute, interrupted once its transactions flow (after {@code warmup}). */
    private Process interruptedRr(String warmup, String format) throws Exception {
        Process p = children.start("rr", "--duration", "60s", "--warmup", warmup, format);
        children.awaitMeasuring(p, () -> LinerateChildren.procIo(p, "syscw") > TRANSACTING_WRITES);
        children.interrupt(p);
        assertThat(p.exitValue()).as(children.err(p)).isEqualTo(Linerate.INTERRUPTED);
        return p;
    }

    @Test
    void rrJsonHoldsTheTransactionsMarkedInterrupted() throws Exception {
        Process p = interruptedRr("0s", "--json");
        String out = children.out(p);
        assertThat(out.strip().lines()).as("one JSON line; stderr: %s", children.err(p)).hasSize(1);
        JsonNode r = JSON.readTree(out);
        assertThat(r.get("interrupted").asBoolean()).isTrue();
        JsonNode d = r.get("detail");
        assertThat(d.get("transactions").asLong()).isPositive();
        assertThat(d.get("window_ns").asLong()).as("cut short of its minute").isLessThan(60_000_000_000L);
    }

    @Test
    void rrKtapEndsWithItsTestNotOkInterrupted() throws Exception {
        Process p = interruptedRr("0s", "--ktap");
        List<String> lines = children.out(p).lines().toList();
        assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..1");
        assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok ")).singleElement()
                .asString().startsWith("not ok 1 ").endsWith(" # interrupted");
        assertThat(lines.get(lines.size() - 1)).startsWith("# Totals: pass:0 fail:1 ");
    }

    @Test
    void rrInItsWarmupWritesAWholeDocumentSayingNothingWasMeasured() throws Exception {
        Process p = interruptedRr("60s", "--json");
        String out = children.out(p);
        assertThat(out.strip().lines()).as("one JSON line; stderr: %s", children.err(p)).hasSize(1);
        JsonNode r = JSON.readTree(out);
        assertThat(r.get("interrupted").asBoolean()).isTrue();
        assertThat(r.get("valid").asBoolean()).as("a window of no length has no rate").isFalse();
        JsonNode d = r.get("detail");
        assertThat(d.get("transactions").asLong()).isZero();
        assertThat(d.get("window_ns").asLong()).isZero();
        assertThat(out).contains("interrupted in the warm-up: nothing was measured");
    }

    @Test
    void rrInItsWarmupEndsItsKtapDocumentNotOkInterrupted() throws Exception {
        Process p = interruptedRr("60s", "--ktap");
        List<String> lines = children.out(p).lines().toList();
        assertThat(lines).as("stderr: %s", children.err(p)).isNotEmpty();
        assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..1");
        assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok ")).singleElement()
                .asString().startsWith("not ok 1 ").endsWith(" # interrupted");
    }

    /** The veth's {@code tx_packets}: the raw run sends through it. */
    private static long txPackets(String dev) {
        try {
            return Long.parseLong(Files.readString(Path.of("/sys/class/net", dev, "statistics", "tx_packets")).trim());
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** {@code raw} of a minute across a fresh veth pair, interrupted once frames leave; the pair is removed after. */
    private JsonNode interruptedRaw(String format, boolean json) throws Exception {
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        String name;
        String jsonOut = null;
        try (VethPair veth = VethPair.create('i')) {
            name = veth.a;
            long before = txPackets(veth.a);
            Process p = children.start("raw", "--tx", veth.a, "--rx", veth.b, "--frame-size", "256", "--rate", "20M",
                    "--duration", "60s", "--warmup", "0s", format);
            children.awaitMeasuring(p, () -> txPackets(veth.a) > before + 100);
            children.interrupt(p);
            assertThat(p.exitValue()).as(children.err(p)).isEqualTo(Linerate.INTERRUPTED);
            String out = children.out(p);
            if (json) {
                assertThat(out.strip().lines()).as("one JSON line; stderr: %s", children.err(p)).hasSize(1);
                jsonOut = out;
            } else {
                List<String> lines = out.lines().toList();
                assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..1");
                assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok "))
                        .containsExactly("not ok 1 raw # interrupted");
                assertThat(lines.get(lines.size() - 1)).startsWith("# Totals: pass:0 fail:1 ");
            }
        }
        assertThat(Path.of("/sys/class/net", name)).as("no veth left").doesNotExist();
        return json ? JSON.readTree(jsonOut) : null;
    }

    @Test
    void rawJsonHoldsTheFramesSentMarkedInterrupted() throws Exception {
        JsonNode r = interruptedRaw("--json", true);
        assertThat(r.get("interrupted").asBoolean()).isTrue();
        JsonNode s = r.get("detail").get("streams").get(0);
        assertThat(s.get("tx_frames").asLong()).isPositive();
        assertThat(s.get("tx_bytes").asLong()).isEqualTo(s.get("tx_frames").asLong() * 256);
        assertThat(r.get("detail").get("measured_ns").asLong()).as("cut short of its minute")
                .isLessThan(60_000_000_000L);
    }

    @Test
    void rawKtapEndsWithItsTestNotOkInterrupted() throws Exception {
        interruptedRaw("--ktap", false);
    }
}
