package io.linerate.core.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.IntervalSample;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file a process writes, checked byte by byte against the documented layout, and read back. */
class CountersFileTest {
    private static final String LABEL = "stream udp4 1400 B 1.000 s";

    @TempDir
    Path dir;

    private final long pid = ProcessHandle.current().pid();

    @Test
    void lengthsFollowFromAgronasRecordSizes() {
        // Agrona: 128 bytes per value, 512 bytes per metadata record; 256 counters
        assertThat(CountersLayout.VALUES_LENGTH).isEqualTo(32_768);
        assertThat(CountersLayout.METADATA_LENGTH).isEqualTo(131_072);
        // header 128 + 131072 + 32768
        assertThat(CountersLayout.FILE_LENGTH).isEqualTo(163_968);
    }

    @Test
    void fileNamesCarryThePid() {
        assertThat(CountersLayout.fileName(1234)).isEqualTo("linerate-1234.counters");
        assertThat(CountersLayout.pidOf("linerate-1234.counters")).isEqualTo(1234);
        assertThat(CountersLayout.pidOf("linerate-.counters")).isEqualTo(-1);
        assertThat(CountersLayout.pidOf("linerate-12a4.counters")).isEqualTo(-1);
        assertThat(CountersLayout.pidOf("linerate-1234.counters.tmp")).isEqualTo(-1);
        assertThat(CountersLayout.pidOf("notes.txt")).isEqualTo(-1);
    }

    @Test
    void headerAndFirstCountersSitAtTheDocumentedOffsets() throws IOException {
        LiveCounters live = new LiveCounters(dir);
        long before = System.currentTimeMillis();
        try (TransferCounters t = live.transfer(LABEL)) {
            t.bytesSent(1_000_000);
            t.bytesReceived(999_000);
            t.messagesSent(1_000);
            t.messagesReceived(999);
            t.lost(1);
            Path file = dir.resolve("linerate-" + pid + ".counters");
            assertThat(live.file()).contains(file);
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.nativeOrder());
            assertThat(b.capacity()).isEqualTo(163_968);
            assertThat(new String(b.array(), 0, 8, StandardCharsets.US_ASCII)).isEqualTo("LINERATE");
            assertThat(b.getInt(8)).as("version").isEqualTo(1);
            assertThat(b.getInt(12)).as("metadata length").isEqualTo(131_072);
            assertThat(b.getInt(16)).as("values length").isEqualTo(32_768);
            assertThat(b.getLong(24)).as("pid").isEqualTo(pid);
            assertThat(b.getLong(40)).as("created").isBetween(before, System.currentTimeMillis());
            // first metadata record at 128: state 1 (allocated), type 1 (bytes sent), key group 1
            assertThat(b.getInt(128)).isEqualTo(1);
            assertThat(b.getInt(132)).isEqualTo(1);
            assertThat(b.getLong(128 + 16)).as("group id").isEqualTo(1);
            assertThat(b.getInt(128 + 16 + 16)).as("group kind: transfer").isZero();
            // Agrona's label: length at 128 within the record, ASCII bytes after it
            assertThat(b.getInt(128 + 128)).isEqualTo(LABEL.length());
            assertThat(new String(b.array(), 128 + 132, LABEL.length(), StandardCharsets.US_ASCII)).isEqualTo(LABEL);
            // second record (bytes received) at 128 + 512
            assertThat(b.getInt(640 + 4)).isEqualTo(2);
            // values start at 128 + 131072 = 131200, one counter every 128 bytes
            assertThat(b.getLong(131_200)).isEqualTo(1_000_000);
            assertThat(b.getLong(131_200 + 128)).isEqualTo(999_000);
            assertThat(b.getLong(131_200 + 2 * 128)).isEqualTo(1_000);
            assertThat(b.getLong(131_200 + 5 * 128)).as("no interval yet: no rate").isEqualTo(-1);
        }
        assertThat(Files.list(dir)).as("the last transfer removes the file").isEmpty();
        assertThat(live.file()).isEmpty();
    }

    @Test
    void readerGroupsCountersByTransfer() throws IOException {
        LiveCounters live = new LiveCounters(dir);
        try (TransferCounters a = live.transfer(LABEL);
             TransferCounters b = live.transfer("stream tcp6 1220 B 2.000 s");
             RunProgress p = live.progress("loopback suite", 16)) {
            a.bytesSent(1_500_000);
            // 125000 bytes in 0.5 s: 125000 * 8 / 0.5 = 2000000 bit/s
            a.interval(new IntervalSample(0, 500_000_000L, 125_000, 100, 0, OptionalDouble.empty(), false));
            b.bytesReceived(7);
            // an interval with no length has no rate
            b.interval(new IntervalSample(10, 10, 5, 0, 0, false));
            p.done(5);

            ProcessCounters pc = CountersFileReader.read(live.file().orElseThrow()).orElseThrow();
            assertThat(pc.pid()).isEqualTo(pid);
            assertThat(pc.groups()).extracting(CounterGroup::id).containsExactly(1L, 2L, 3L);
            CounterGroup ga = pc.groups().get(0);
            assertThat(ga.kind()).isEqualTo(CounterGroup.Kind.TRANSFER);
            assertThat(ga.label()).isEqualTo(LABEL);
            assertThat(ga.value(CounterType.BYTES_SENT)).hasValue(1_500_000);
            assertThat(ga.value(CounterType.BYTES_RECEIVED)).hasValue(0);
            assertThat(ga.value(CounterType.RATE)).hasValue(2_000_000);
            assertThat(ga.value(CounterType.DONE)).isEmpty();
            CounterGroup gb = pc.groups().get(1);
            assertThat(gb.value(CounterType.BYTES_RECEIVED)).hasValue(7);
            assertThat(gb.value(CounterType.RATE)).hasValue(-1);
            CounterGroup gp = pc.groups().get(2);
            assertThat(gp.kind()).isEqualTo(CounterGroup.Kind.PROGRESS);
            assertThat(gp.value(CounterType.DONE)).hasValue(5);
            assertThat(gp.value(CounterType.TOTAL)).hasValue(16);

            a.close();
            List<CounterGroup> left = CountersFileReader.read(live.file().orElseThrow()).orElseThrow().groups();
            assertThat(left).as("a closed transfer disappears").extracting(CounterGroup::id).containsExactly(2L, 3L);
        }
        assertThat(Files.list(dir)).isEmpty();
    }

    @Test
    void aHoldKeepsTheFileBetweenTransfers() throws IOException {
        LiveCounters live = new LiveCounters(dir);
        try (LiveCounters.Hold h = live.hold()) {
            Path file = live.file().orElseThrow();
            live.transfer(LABEL).close();
            assertThat(file).exists();
            assertThat(CountersFileReader.read(file).orElseThrow().groups()).isEmpty();
        }
        assertThat(Files.list(dir)).isEmpty();
    }

    @Test
    void anUnwritableDirectoryGivesDetachedCounters() throws IOException {
        Path notADir = Files.writeString(dir.resolve("plain-file"), "x");
        LiveCounters live = new LiveCounters(notADir);
        try (TransferCounters t = live.transfer(LABEL)) {
            t.bytesSent(5); // writes into private memory; the run goes on
            assertThat(live.file()).isEmpty();
        }
    }

    @Test
    void aForeignOrUnreadyFileIsNotRead() throws IOException {
        Path f = Files.write(dir.resolve("linerate-1.counters"), new byte[CountersLayout.FILE_LENGTH]);
        assertThat(CountersFileReader.read(f)).as("version 0: not ready").isEmpty();
        Files.writeString(f, "not a counters file");
        assertThat(CountersFileReader.read(f)).isEmpty();
        assertThat(CountersFileReader.read(dir.resolve("linerate-2.counters"))).as("gone").isEmpty();
    }

    @Test
    void aHalfAllocatedGroupIsLeftOut() throws IOException {
        try (CountersFile f = CountersFile.create(dir, pid, -1)) {
            // one of a transfer's six counters, as a reader may catch it mid-allocation
            f.allocate(CounterType.BYTES_SENT, 7, 0, CounterGroup.Kind.TRANSFER, "half made");
            f.allocate(CounterType.DONE, 8, 0, CounterGroup.Kind.PROGRESS, "whole");
            f.allocate(CounterType.TOTAL, 8, 0, CounterGroup.Kind.PROGRESS, "whole");
            assertThat(CountersFileReader.read(f.path()).orElseThrow().groups())
                    .extracting(CounterGroup::label).containsExactly("whole");
        }
        assertThat(dir).isEmptyDirectory();
    }
}
