package io.linerate.core.fulllog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-over between the hot thread and the writer: a writer held up (by a latch, never by a
 * sleep) makes the hot thread drop and count entries instead of waiting, and close ends the
 * writer and the file on every path. The class timeout is the proof that nothing blocks: a
 * {@code record} that waited for the held-up writer would never return.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FullLogTest {
    @TempDir
    Path dir;

    /** A sink that holds its first write until released, and keeps the sequence numbers it wrote. */
    static final class HeldSink implements ChunkSink {
        final CountDownLatch release = new CountDownLatch(1);
        final List<Long> sequences = new ArrayList<>();
        volatile boolean closed;

        @Override
        public void write(long[] entries, int count) throws IOException {
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new InterruptedIOException("writer interrupted");
            }
            for (int i = 0; i < count; i++) {
                sequences.add(entries[i * FullLog.COLUMNS]);
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    static boolean writerAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().equals("linerate-full-log"));
    }

    @Test
    void aHeldUpWriterMakesTheHotThreadDropAndCountInsteadOfWaiting() {
        HeldSink sink = new HeldSink();
        // 2 records of 4 entries: entries 0..3 fill the first, 4..7 the second; the writer holds the
        // first until released and returns neither before, so entries 8..19 find no empty record
        FullLog log = FullLog.start("held", sink, 4, 2, Duration.ofSeconds(10));
        for (long seq = 0; seq < 20; seq++) {
            log.record(seq, 64, 1, 1000 + seq, 2000 + seq);
        }
        sink.release.countDown();
        log.finish();
        FullLogSummary s = log.closeAndSummarize();
        assertThat(s.entries()).isEqualTo(8);
        assertThat(s.dropped()).isEqualTo(12);
        assertThat(s.recorded()).isEqualTo(20);
        assertThat(s.failure()).isEmpty();
        assertThat(sink.sequences).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(sink.closed).isTrue();
        assertThat(writerAlive()).isFalse();
    }

    @Test
    void aWriterThatNeverFinishesIsInterruptedAndTheLogClosedWithinTheTimeout() {
        HeldSink sink = new HeldSink();
        FullLog log = FullLog.start("stuck", sink, 4, 2, Duration.ofMillis(200));
        // 6 entries: one full record handed over (the writer holds it forever), 2 in the last one
        for (long seq = 0; seq < 6; seq++) {
            log.record(seq, 64, 1, 0, 0);
        }
        log.finish();
        FullLogSummary s = log.closeAndSummarize();
        assertThat(s).isEqualTo(new FullLogSummary("stuck", 0, 6,
                Optional.of("the writer did not finish within 200 ms and was interrupted")));
        assertThat(sink.closed).isTrue();
        assertThat(writerAlive()).isFalse();
        // closing again returns the same summary and does nothing else
        assertThat(log.closeAndSummarize()).isSameAs(s);
    }

    @Test
    void aWriteErrorIsReportedAndEveryEntryNotWrittenCountsAsDropped() {
        ChunkSink failing = new ChunkSink() {
            @Override
            public void write(long[] entries, int count) throws IOException {
                throw new IOException("No space left on device");
            }

            @Override
            public void close() {}
        };
        FullLog log = FullLog.start("full-disk", failing, 4, 2, Duration.ofSeconds(10));
        for (long seq = 0; seq < 10; seq++) {
            log.record(seq, 64, 1, 0, 0);
        }
        log.finish();
        FullLogSummary s = log.closeAndSummarize();
        // nothing was written, whichever records the writer had returned in time
        assertThat(s).isEqualTo(new FullLogSummary("full-disk", 0, 10,
                Optional.of("writing failed: No space left on device")));
    }

    @Test
    void closingWithoutFinishSaysTheCountIsUnknown() {
        HeldSink sink = new HeldSink();
        sink.release.countDown();
        FullLog log = FullLog.start("unfinished", sink, 4, 2, Duration.ofSeconds(10));
        log.record(0, 64, 1, 0, 0);
        FullLogSummary s = log.closeAndSummarize();
        // the entry sat in the record the producer never handed over
        assertThat(s.entries()).isZero();
        assertThat(s.failure()).contains("the measuring thread did not finish its log, so the entries it recorded "
                + "are not known");
    }

    @Test
    void theFileHasTheHeaderThenOneCsvLinePerEntryInOrder() throws Exception {
        Path file = dir.resolve("log.csv");
        FullLog log = FullLog.open(file, Duration.ofSeconds(10));
        // 2500 entries: three records of 1024 at most in flight, of 64, so none is dropped
        for (long i = 0; i < 2500; i++) {
            log.record(i, 100 + i, (int) (i % 3), 1000 * i, 1000 * i + 7);
        }
        log.record(-1, 0, 2, Long.MIN_VALUE, Long.MAX_VALUE);
        log.finish();
        FullLogSummary s = log.closeAndSummarize();
        assertThat(s).isEqualTo(new FullLogSummary(file.toString(), 2501, 0, Optional.empty()));
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(1 + 2501);
        assertThat(lines.get(0)).isEqualTo("seq,bytes,phase,send_ns,recv_ns");
        // entry i is "i,100+i,i%3,1000i,1000i+7"
        assertThat(lines.get(1)).isEqualTo("0,100,0,0,7");
        assertThat(lines.get(2)).isEqualTo("1,101,1,1000,1007");
        assertThat(lines.get(1 + 2048)).isEqualTo("2048,2148,2,2048000,2048007");
        assertThat(lines.get(2500)).isEqualTo("2499,2599,0,2499000,2499007");
        assertThat(lines.get(2501)).isEqualTo("-1,0,2,-9223372036854775808,9223372036854775807");
        for (int i = 0; i < 2500; i++) {
            assertThat(lines.get(1 + i)).startsWith(i + ",");
        }
    }

    @Test
    void aFileThatCannotBeCreatedIsAnErrorAndBadSizesNameTheValue() {
        Path missing = dir.resolve("missing/log.csv");
        assertThatThrownBy(() -> FullLog.open(missing, Duration.ofSeconds(1)))
                .isInstanceOf(IOException.class)
                .hasMessage("cannot create the full log " + missing + ": its directory does not exist");
        assertThat(writerAlive()).isFalse();
        assertThatThrownBy(() -> FullLog.open(dir.resolve("x.csv"), Duration.ofSeconds(1), 0, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("full log of 4 records of 0 entries is out of range; allowed: at least 1 record of "
                        + "1..429496729 entries");
    }
}
