package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.UdpStats;
import io.linerate.core.fulllog.FullLogSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --full-log} of a UDP stream on loopback: every datagram that arrived is either a line of
 * the file or counted as dropped, every logged sequence number was sent, and the receive loop
 * still allocates nothing while it logs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FullLogStreamTest {
    static final int PAYLOAD = 1000;

    @TempDir
    Path dir;

    private static TransferResult run(TransferSpec spec) throws TransferException {
        try (Transfer t = Transports.byName("nio").open(spec, Clock.system())) {
            return t.run();
        }
    }

    /** A parsed line of the log: seq, bytes, phase, send_ns, recv_ns. */
    static long[] parse(String line) {
        String[] cells = line.split(",", -1);
        assertThat(cells).as(line).hasSize(5);
        long[] v = new long[5];
        for (int i = 0; i < 5; i++) {
            v[i] = Long.parseLong(cells[i]);
        }
        return v;
    }

    @ParameterizedTest(name = "rate {0} bit/s")
    @ValueSource(longs = {0, 50_000_000})
    void everyDatagramReceivedIsLoggedOrCountedAsDropped(long rate) throws Exception {
        Path file = dir.resolve("udp-" + rate + ".csv");
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4)
                .payloadBytes(PAYLOAD).rateBitsPerSecond(rate).warmup(Duration.ofMillis(200))
                .duration(Duration.ofMillis(500)).interval(Duration.ofMillis(100)).fullLog(file).build();
        TransferResult r = run(spec);
        FullLogSummary log = r.fullLog().orElseThrow();
        assertThat(log.file()).isEqualTo(file.toString());
        assertThat(log.failure()).isEmpty();
        // bytesReceived counts each distinct datagram once at its length, PAYLOAD bytes each, over
        // the whole transfer; loopback does not duplicate, so that is every arrival
        long received = r.bytesReceived() / PAYLOAD;
        assertThat(r.bytesReceived() % PAYLOAD).isZero();
        assertThat(received).isPositive();
        assertThat(log.entries() + log.dropped()).isEqualTo(received);

        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).isEqualTo("seq,bytes,phase,send_ns,recv_ns");
        assertThat(lines).hasSize(1 + (int) log.entries());
        Set<Long> seen = new HashSet<>();
        long window = 0;
        for (String line : lines.subList(1, lines.size())) {
            long[] e = parse(line);
            // a sequence number the sender used: messages are numbered from 0
            assertThat(e[0]).as(line).isBetween(0L, r.messagesSent() - 1);
            assertThat(seen.add(e[0])).as("logged twice: %s", line).isTrue();
            assertThat(e[1]).as(line).isEqualTo(PAYLOAD);
            assertThat(e[2]).as(line).isBetween(0L, 2L);
            // one clock in one JVM: nothing arrives before it was sent
            assertThat(e[4]).as(line).isGreaterThanOrEqualTo(e[3]);
            if (e[2] == 1) {
                window++;
            }
        }
        // the window's arrivals are its logged lines and some of the dropped entries
        UdpStats u = r.udp().orElseThrow();
        assertThat(window).isLessThanOrEqualTo(u.datagramsReceived());
        assertThat(window + log.dropped()).isGreaterThanOrEqualTo(u.datagramsReceived());
    }

    @Test
    void aFullLogIsRefusedForTcpAndItsFileMustBeCreatable() {
        assertThatThrownBy(() -> TransferSpec.builder().protocol(Protocol.TCP).fullLog(dir.resolve("t.csv")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a full log applies to UDP only: its entries are sequence-numbered datagrams, and tcp has none");
        Path missing = dir.resolve("no/such/dir/log.csv");
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).duration(Duration.ofMillis(100))
                .fullLog(missing).build();
        assertThatThrownBy(() -> run(spec))
                .isInstanceOf(TransferException.class)
                .hasMessage("cannot create the full log " + missing + ": its directory does not exist")
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.isAlive()
                && (t.getName().startsWith("linerate-rx") || t.getName().equals("linerate-full-log")));
    }

    @ParameterizedTest(name = "rate {0} bit/s")
    @ValueSource(longs = {0, 100_000_000})
    void theReceiveLoopAllocatesNothingWhileItLogs(long rate) throws Exception {
        // as SteadyStateAllocationTest: under 0.01 byte per message in every run, exactly 0 in one
        // of at most three; the writer thread allocates, the receiving thread must not
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4)
                .rateBitsPerSecond(rate).warmup(Duration.ofSeconds(3)).duration(Duration.ofSeconds(1))
                .interval(Duration.ofSeconds(1)).fullLog(dir.resolve("alloc-" + rate + ".csv")).build();
        boolean clean = false;
        for (int run = 0; run < 3 && !clean; run++) {
            TransferResult r = run(spec);
            long messages = r.messagesSent();
            assertThat(messages).isGreaterThan(10_000);
            assertThat(r.fullLog().orElseThrow().entries()).isPositive();
            assertThat(r.receiverAllocatedBytes()).as("receiver bytes allocated in the window").isNotNegative()
                    .isLessThan(messages / 100);
            clean = r.receiverAllocatedBytes() == 0;
        }
        assertThat(clean).as("one of three runs allocated nothing in its receiving thread").isTrue();
    }
}
