package io.linerate.examples.cli;

import static io.linerate.examples.cli.LinerateCliTest.linerate;
import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.IntervalSample;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersLayout;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.ProcessCounters;
import io.linerate.core.live.TransferCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code linerate stat} and the progress line, in this JVM. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatCommandTest {
    /** Linux keeps pids below PID_MAX_LIMIT = 2^22 = 4194304, so no process has this one. */
    private static final long NEVER_A_PID = 4_194_305L;

    @TempDir
    Path dir;

    @AfterEach
    void restore() {
        LiveCounters.process().directory(null);
    }

    @Test
    void withNoProcessItSaysSoAndEnds() {
        LinerateCliTest.Run r = linerate("stat", "--counters-dir", dir.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.lines()).singleElement().asString().endsWith(" no running linerate process in " + dir);
        assertThat(r.err()).isEmpty();
    }

    @Test
    void aNamedDirectoryThatIsAFileOrMissingIsAnError() throws IOException {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        LinerateCliTest.Run notDir = linerate("stat", "--counters-dir", file.toString());
        assertThat(notDir.exit()).isEqualTo(1);
        assertThat(notDir.err()).contains("the counters directory " + file + " is not a directory");
        LinerateCliTest.Run missing = linerate("stat", "--counters-dir", dir.resolve("none").toString());
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("the counters directory " + dir.resolve("none") + " does not exist");
    }

    @Test
    void withCountItPrintsThatManyReports() {
        LinerateCliTest.Run r = linerate("stat", "--counters-dir", dir.toString(), "--count", "2", "--interval", "100ms");
        assertThat(r.exit()).isZero();
        assertThat(r.lines()).hasSize(2).allMatch(l -> l.endsWith(" no running linerate process in " + dir));
    }

    @Test
    void badUsageExits2NamingTheValue() {
        LinerateCliTest.Run fast = linerate("stat", "--counters-dir", dir.toString(), "--interval", "50ms");
        assertThat(fast.exit()).isEqualTo(2);
        assertThat(fast.err()).contains("--interval 50 ms is out of range; allowed: 100ms to 1h");
        LinerateCliTest.Run none = linerate("stat", "--counters-dir", dir.toString(), "--count", "0");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("--count 0 is out of range; allowed: 1 or more");
        assertThat(linerate("stat", "--bogus").exit()).isEqualTo(2);
    }

    @Test
    void printsTheCountersOfARunningTransfer() {
        LiveCounters.process().directory(dir);
        try (TransferCounters t = LiveCounters.process().transfer("stream tcp4 1220 B 10.000 s")) {
            t.bytesSent(1_500_000);
            t.bytesReceived(1_499_000);
            t.messagesSent(1_230);
            // 1500000 bytes in 1 s: 12000000 bit/s = 12.000 Mbit/s
            t.interval(new IntervalSample(0, 1_000_000_000L, 1_500_000, 0, 0, false));
            LinerateCliTest.Run r = linerate("stat", "--counters-dir", dir.toString(), "--count", "1");
            assertThat(r.exit()).isZero();
            assertThat(r.lines()).hasSize(3);
            assertThat(r.lines().get(0)).endsWith(" 1 process in " + dir);
            assertThat(r.lines().get(1).split(" +")).containsExactly("PID", "ID", "UP_S", "BYTES_SENT", "BYTES_RECV",
                    "MSGS_SENT", "MSGS_RECV", "LOST", "MBIT/S", "WHAT");
            String[] row = r.lines().get(2).strip().split(" +", 10);
            assertThat(row[0]).isEqualTo(Long.toString(ProcessHandle.current().pid()));
            assertThat(row[1]).as("group id, unique within the process").matches("[1-9][0-9]*");
            assertThat(List.of(row).subList(3, 10)).containsExactly("1500000", "1499000", "1230", "0", "0", "12.000",
                    "stream tcp4 1220 B 10.000 s");
        }
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void removesAStaleFileWithALineOnStderr() throws IOException {
        Path stale = Files.write(dir.resolve(CountersLayout.fileName(NEVER_A_PID)), new byte[64]);
        LinerateCliTest.Run r = linerate("stat", "--counters-dir", dir.toString(), "--count", "1");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEqualTo("linerate: removed stale counters file " + stale
                + ": process 4194305 is not running" + System.lineSeparator());
        assertThat(stale).doesNotExist();
    }

    @Test
    void aTrafficCommandWritesItsFileInTheDirectoryAndRemovesIt() {
        LinerateCliTest.Run r = linerate("stream", "--duration", "200ms", "--warmup", "0s", "--counters-dir", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(dir).as("made for the run, empty after it").isEmptyDirectory();
        assertThat(LiveCounters.process().directory()).as("the option holds for one command only")
                .isEqualTo(LiveCounters.defaultDirectory());
    }

    @Test
    void theProgressLineShowsSuitesAndTheLatestTransfer() {
        long now = 1_000_000_000_000L;
        CounterGroup suite = new CounterGroup(1, CounterGroup.Kind.PROGRESS, "loopback suite", now - 9_000,
                Map.of(CounterType.DONE, 3L, CounterType.TOTAL, 16L));
        CounterGroup stream = new CounterGroup(2, CounterGroup.Kind.TRANSFER, "stream udp6 1220 B 2.000 s", now - 4_200,
                Map.of(CounterType.BYTES_RECEIVED, 1_234_000_000L, CounterType.RATE, 2_345_678_000L));
        ProcessCounters p = new ProcessCounters(dir, 42, -1, now - 10_000, now, List.of(suite, stream));
        // 4200 ms = 4.2 s; 2345678000 bit/s = 2345.678 Mbit/s; 1234000000 B = 1.234 GB (decimal)
        String full = "loopback suite 3/16 | stream udp6 1220 B 2.000 s: 4.2 s, 2345.678 Mbit/s, 1.234 GB received";
        assertThat(LiveFormat.progressLine(p, now, 200)).isEqualTo(full);
        assertThat(LiveFormat.progressLine(p, now, 30)).isEqualTo(full.substring(0, 27) + "...");
        ProcessCounters idle = new ProcessCounters(dir, 42, -1, now, now, List.of());
        assertThat(LiveFormat.progressLine(idle, now, 80)).isEmpty();
    }
}
