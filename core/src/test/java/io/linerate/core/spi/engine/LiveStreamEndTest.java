package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.ProcessCounters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One end of a stream whose other end runs on a peer ({@link StreamEnd}, as {@code stream --peer} and
 * the agent run it) publishes its counters to the process's counters file, as {@code linerate stat}
 * reads them: a remote stream is no longer shown as an idle process.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveStreamEndTest {
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
    void aReceivingEndPublishesWhatItReceivedAndItsPeer() throws Exception {
        TransferSpec s = TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(100)
                .duration(Duration.ofSeconds(20)).warmup(Duration.ZERO).interval(Duration.ofMillis(50))
                .ioTimeout(Duration.ofSeconds(5)).endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
        // the peer's stream: 7 reads of 100 bytes, then its end; the receiving end's window ends there
        StreamEnd end = StreamEnd.receiver(s, Clock.system(), ctx -> {
            for (int i = 0; i < 7; i++) {
                ctx.received(100);
            }
            ctx.endOfStream();
        });
        List<ProcessCounters> seen = new ArrayList<>();
        EndCounters c = end.run(sample -> {
            try {
                seen.add(CountersFileReader.read(LiveCounters.process().file().orElseThrow()).orElseThrow());
            } catch (java.io.IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        }, () -> -1);

        assertThat(c.bytes()).isEqualTo(700);
        // the last sample is emitted after the loop ended, its counters published just before it
        ProcessCounters last = seen.get(seen.size() - 1);
        CounterGroup g = last.groups().stream().filter(x -> x.kind() == CounterGroup.Kind.TRANSFER)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(g.label()).isEqualTo("stream tcp4 100 B " + s.bound() + ", receiving end with 198.18.0.2:7001");
        // 7 x 100 bytes received; this end sends nothing and does not see the peer's sending counters
        assertThat(g.value(CounterType.BYTES_RECEIVED)).hasValue(700);
        assertThat(g.value(CounterType.BYTES_SENT)).hasValue(0);
        assertThat(LiveCounters.process().file()).as("the file goes with the end").isEmpty();
    }
}
