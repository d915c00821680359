package io.linerate.core.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stale-file rule: the pid in the name is gone, or now belongs to a process started at another time. */
class StaleCounterFilesTest {
    /**
     * Linux's PID_MAX_LIMIT is 2^22 = 4194304 (include/linux/threads.h) and pids stay below
     * pid_max, so no process can ever have this pid.
     */
    private static final long NEVER_A_PID = 4_194_305L;
    private static final long HOUR_MS = 3_600_000L;

    @TempDir
    Path dir;

    /** A header as {@link CountersLayout} documents it, written by hand. */
    private Path file(long pid, long startMillis) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(CountersLayout.FILE_LENGTH).order(ByteOrder.nativeOrder());
        b.put(0, "LINERATE".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        b.putInt(8, 1);
        b.putInt(12, 131_072);
        b.putInt(16, 32_768);
        b.putLong(24, pid);
        b.putLong(32, startMillis);
        return Files.write(dir.resolve("linerate-" + pid + ".counters"), b.array());
    }

    @Test
    void theFileOfAPidNoProcessHasIsRemoved() throws IOException {
        Path f = file(NEVER_A_PID, 0);
        Path tmp = Files.writeString(dir.resolve(".linerate-" + NEVER_A_PID + ".counters.tmp"), "half made");
        List<StaleCounterFiles.Removed> r = StaleCounterFiles.sweep(dir, null);
        assertThat(r).extracting(StaleCounterFiles.Removed::file).containsExactlyInAnyOrder(f, tmp);
        assertThat(r).extracting(StaleCounterFiles.Removed::reason).containsOnly("process 4194305 is not running");
        assertThat(f).doesNotExist();
        assertThat(tmp).doesNotExist();
    }

    @Test
    void aReusedPidIsToldByItsStartTime() throws Exception {
        Process child = new ProcessBuilder("sleep", "60").start();
        try {
            Instant start = child.info().startInstant().orElseThrow();
            Path f = file(child.pid(), start.toEpochMilli() - HOUR_MS);
            List<StaleCounterFiles.Removed> r = StaleCounterFiles.sweep(dir, null);
            assertThat(r).singleElement().satisfies(x -> {
                assertThat(x.file()).isEqualTo(f);
                assertThat(x.reason()).startsWith("pid " + child.pid() + " now belongs to a process started at ");
            });

            Path live = file(child.pid(), start.toEpochMilli());
            assertThat(StaleCounterFiles.sweep(dir, null)).as("its own process is running").isEmpty();
            assertThat(live).exists();

            child.destroyForcibly().waitFor();
            assertThat(StaleCounterFiles.sweep(dir, null)).extracting(StaleCounterFiles.Removed::file).containsExactly(live);
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aFileWithThisProcesssPidThatItDidNotOpenIsStale() throws IOException {
        long self = ProcessHandle.current().pid();
        Path f = file(self, 0);
        assertThat(StaleCounterFiles.sweep(dir, f)).as("the process's own open file").isEmpty();
        assertThat(StaleCounterFiles.sweep(dir, null)).extracting(StaleCounterFiles.Removed::reason)
                .containsExactly("left by an earlier process with this process's pid " + self);
    }

    @Test
    void otherFilesAreLeftAlone() throws IOException {
        Path notes = Files.writeString(dir.resolve("notes.txt"), "x");
        Path odd = Files.writeString(dir.resolve("linerate-12a.counters"), "x");
        assertThat(StaleCounterFiles.sweep(dir, null)).isEmpty();
        assertThat(StaleCounterFiles.sweep(dir.resolve("missing"), null)).isEmpty();
        assertThat(notes).exists();
        assertThat(odd).exists();
    }

    @Test
    void creatingAFileSweepsTheStaleOnesFirst() throws IOException {
        Path f = file(NEVER_A_PID, 0);
        try (LiveCounters.Hold h = new LiveCounters(dir).hold()) {
            assertThat(f).doesNotExist();
        }
    }
}
