package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.ProcessCounters;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A running engine publishes its counters to the process's counters file, and removes it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveStreamCountersTest {
    private static final AppliedOptions OPTIONS = new AppliedOptions(0x20, 0x20, 0, 1000, 0, 1000, false, false);

    @TempDir
    Path dir;

    @BeforeEach
    void useTempDir() {
        LiveCounters.process().directory(dir);
    }

    @AfterEach
    void restore() {
        LiveCounters.process().directory(null);
    }

    @Test
    void theLastIntervalSeesTheFinalCountersInTheFile() throws Exception {
        TransferSpec s = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(100).bound(Bound.messages(10))
                .warmup(Duration.ZERO).ioTimeout(Duration.ofSeconds(5)).build();
        // delivered 0 1 3 2 3 5 6 8: 7 distinct; 4 and 7 missing below the highest (9 lost at the tail is
        // not known to the receiver)
        long[] delivered = {0, 1, 3, 2, 3, 5, 6, 8};
        CountDownLatch sent = new CountDownLatch(1);
        CountDownLatch arrived = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            while (ctx.nextMessageBytes() > 0) {
                ctx.phase();
                ctx.sent(100, true);
            }
            sent.countDown();
            await(arrived); // the sender ends after every delivery, so the last reading sees them all
        }, ctx -> {
            await(sent);
            ByteBuffer buf = ByteBuffer.allocate(100);
            for (long seq : delivered) {
                DatagramHeader.write(buf, s.streamId(), seq, 0);
                ctx.datagram(buf, 100);
            }
            arrived.countDown();
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        List<ProcessCounters> seen = new ArrayList<>();
        List<IntervalSample> samples = new ArrayList<>();
        e.run(OPTIONS, sample -> {
            samples.add(sample);
            try {
                seen.add(CountersFileReader.read(LiveCounters.process().file().orElseThrow()).orElseThrow());
            } catch (java.io.IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        });
        ProcessCounters last = seen.get(seen.size() - 1);
        assertThat(last.pid()).isEqualTo(ProcessHandle.current().pid());
        CounterGroup g = last.groups().stream().filter(x -> x.kind() == CounterGroup.Kind.TRANSFER)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(g.label()).isEqualTo("stream udp4 100 B 10 messages");
        assertThat(g.value(CounterType.BYTES_SENT)).hasValue(1_000);
        assertThat(g.value(CounterType.MESSAGES_SENT)).hasValue(10);
        assertThat(g.value(CounterType.BYTES_RECEIVED)).hasValue(700);
        assertThat(g.value(CounterType.MESSAGES_RECEIVED)).hasValue(7);
        assertThat(g.value(CounterType.LOST)).hasValue(2);
        IntervalSample lastSample = samples.get(samples.size() - 1);
        long rate = lastSample.bitsPerSecond().isPresent() ? Math.round(lastSample.bitsPerSecond().getAsDouble()) : -1;
        assertThat(g.value(CounterType.RATE)).as("the sample's own rate").hasValue(rate);
        assertThat(LiveCounters.process().file()).isEmpty();
        assertThat(Files.list(dir)).as("the file is removed after the run").isEmpty();
    }

    @Test
    void aFailedRunRemovesTheFileToo() {
        TransferSpec s = TransferSpec.builder().protocol(Protocol.TCP).bound(Bound.bytes(1000))
                .warmup(Duration.ZERO).ioTimeout(Duration.ofSeconds(5)).build();
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            throw new java.io.IOException("broken pipe");
        }, ctx -> {
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> e.run(OPTIONS, x -> { }))
                .hasMessageContaining("broken pipe");
        assertThat(LiveCounters.process().file()).isEmpty();
        assertThat(dir).isEmptyDirectory();
    }

    private static void await(CountDownLatch l) {
        try {
            assertThat(l.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }
}
