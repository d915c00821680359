package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.sink.TransferFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine's accounting and bounds with in-memory loops in place of sockets. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StreamEngineTest {
    private static final AppliedOptions OPTIONS = new AppliedOptions(0x20, 0x20, 0, 1000, 0, 1000, false, false);
    private static final long END = -1;

    private static TransferSpec.Builder spec(Protocol p) {
        return TransferSpec.builder().protocol(p).warmup(Duration.ZERO).ioTimeout(Duration.ofSeconds(5));
    }

    @Test
    void countBoundStreamDeliversEveryByte() throws Exception {
        TransferSpec s = spec(Protocol.TCP).payloadBytes(1000).bound(Bound.bytes(123_456)).build();
        BlockingQueue<Long> pipe = new ArrayBlockingQueue<>(1024);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            int n;
            while ((n = ctx.nextMessageBytes()) > 0) {
                put(pipe, n);
                ctx.sent(n, true);
            }
            put(pipe, END);
        }, ctx -> {
            long n;
            while ((n = take(pipe)) != END) {
                ctx.received((int) n);
            }
            ctx.endOfStream();
        });
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        // 123456 bytes in 1000-byte writes: 123 whole writes and one of 456 bytes
        assertThat(r.bytesSent()).isEqualTo(123_456);
        assertThat(r.messagesSent()).isEqualTo(124);
        assertThat(r.bytesReceived()).isEqualTo(123_456);
        assertThat(r.windowBytesReceived()).isEqualTo(123_456);
        assertThat(r.udp()).isEmpty();
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
    }

    @Test
    void anInterruptEndsTheWindowAndKeepsWhatWasMeasured() throws Exception {
        // bound to a minute; the listener interrupts the measuring thread at the first interval that moved bytes
        TransferSpec s = spec(Protocol.TCP).payloadBytes(1000).bound(Bound.duration(Duration.ofSeconds(60)))
                .interval(Duration.ofMillis(100)).build();
        BlockingQueue<Long> pipe = new ArrayBlockingQueue<>(1024);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            int n;
            while ((n = ctx.nextMessageBytes()) > 0) {
                put(pipe, n);
                ctx.sent(n, true);
            }
            put(pipe, END);
        }, ctx -> {
            long n;
            while ((n = take(pipe)) != END) {
                ctx.received((int) n);
            }
            ctx.endOfStream();
        });
        List<IntervalSample> seen = new ArrayList<>();
        TransferResult r = e.run(OPTIONS, sample -> {
            seen.add(sample);
            if (sample.bytes() > 0) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is taken by the run").isFalse();
        assertThat(r.interrupted()).isTrue();
        assertThat(r.measuredNanos()).as("the window ended early").isLessThan(Duration.ofSeconds(60).toNanos());
        // the window holds what arrived until the reading after the interrupt: every interval sample's bytes
        assertThat(r.windowBytesReceived()).isPositive()
                .isEqualTo(seen.stream().mapToLong(IntervalSample::bytes).sum());
        // both ends stopped in order: every byte sent arrived
        assertThat(r.bytesReceived()).isEqualTo(r.bytesSent());
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
        JsonNode json = new ObjectMapper().readTree(ResultJson.of(r).toJson());
        assertThat(json.get("interrupted").asBoolean()).isTrue();
    }

    @Test
    void aResultRunToItsBoundIsNotInterrupted() throws Exception {
        TransferSpec s = spec(Protocol.TCP).payloadBytes(1000).bound(Bound.bytes(10_000)).build();
        BlockingQueue<Long> pipe = new ArrayBlockingQueue<>(1024);
        TransferResult r = new StreamEngine(s, Clock.system(), ctx -> {
            int n;
            while ((n = ctx.nextMessageBytes()) > 0) {
                put(pipe, n);
                ctx.sent(n, true);
            }
            put(pipe, END);
        }, ctx -> {
            long n;
            while ((n = take(pipe)) != END) {
                ctx.received((int) n);
            }
            ctx.endOfStream();
        }).run(OPTIONS, IntervalListener.NONE);
        assertThat(r.interrupted()).isFalse();
        assertThat(new ObjectMapper().readTree(ResultJson.of(r).toJson()).has("interrupted"))
                .as("the field is written only when true").isFalse();
    }

    @Test
    void udpAccountingThroughTheEngine() throws Exception {
        TransferSpec s = spec(Protocol.UDP).payloadBytes(100).bound(Bound.messages(10)).build();
        // the "network" delivers 0 1 3 2 3 5 6 8: 2 reordered, one duplicate 3, 4 7 9 lost (9 at the tail)
        long[] delivered = {0, 1, 3, 2, 3, 5, 6, 8};
        CountDownLatch sent = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            while (ctx.nextMessageBytes() > 0) {
                assertThat(ctx.phase()).isEqualTo(DatagramHeader.WINDOW); // no warm-up
                ctx.sent(100, true);
            }
            sent.countDown();
        }, ctx -> {
            await(sent);
            ByteBuffer buf = ByteBuffer.allocate(100);
            for (long seq : delivered) {
                DatagramHeader.write(buf, s.streamId(), seq, 0);
                ctx.datagram(buf, 100);
            }
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(10);
        assertThat(u.datagramsReceived()).isEqualTo(7);
        assertThat(u.lost()).isEqualTo(3);
        assertThat(u.reordered()).isEqualTo(1);
        assertThat(u.duplicates()).isEqualTo(1);
        assertThat(u.datagramsReceived() + u.lost()).isEqualTo(u.datagramsSent());
        assertThat(r.bytesReceived()).isEqualTo(700);
        assertThat(u.oneWayDelay().count()).isEqualTo(8);
    }

    @Test
    void foreignDatagramsMakeTheResultInvalid() throws Exception {
        TransferSpec s = spec(Protocol.UDP).payloadBytes(100).bound(Bound.messages(1)).build();
        CountDownLatch sent = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            ctx.phase();
            ctx.sent(100, true);
            sent.countDown();
        }, ctx -> {
            awaitSent(sent); // nothing arrives before it was sent: the receiver reads before the sender starts
            ByteBuffer buf = ByteBuffer.allocate(100);
            DatagramHeader.write(buf, s.streamId() + 1, 0, 0);
            ctx.datagram(buf, 100);
            DatagramHeader.write(buf, s.streamId(), 0, 0);
            ctx.datagram(buf, 100);
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        assertThat(r.udp().orElseThrow().datagramsReceived()).isEqualTo(1);
        assertThat(r.invalidReasons()).containsExactly("1 datagrams of another stream or without a linerate header arrived");
    }

    @Test
    void senderFailureEndsTheTransferWithItsCause() {
        TransferSpec s = spec(Protocol.TCP).duration(Duration.ofSeconds(30)).build();
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            ctx.sent(5000, true);
            throw new IOException("Broken pipe");
        }, ctx -> {
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        assertThatThrownBy(() -> e.run(OPTIONS, IntervalListener.NONE))
                .isInstanceOf(TransferException.class)
                .hasMessage("tcp sender failed after 5000 bytes sent and 0 received: Broken pipe");
    }

    @Test
    void aSenderThatIgnoresStopIsBoundedByTheIoTimeout() {
        TransferSpec s = spec(Protocol.TCP).duration(Duration.ofMillis(50)).ioTimeout(Duration.ofMillis(200)).build();
        CountDownLatch release = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> await(release), ctx -> {
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        try {
            assertThatThrownBy(() -> e.run(OPTIONS, IntervalListener.NONE))
                    .isInstanceOf(TransferException.class)
                    .hasMessage("sender did not stop within the I/O timeout of 200 ms after 0 bytes");
        } finally {
            release.countDown();
        }
    }

    @Test
    void intervalsTileTheRunAndTheWindowFollowsTheWarmup() throws Exception {
        TransferSpec s = spec(Protocol.TCP).duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100))
                .interval(Duration.ofMillis(100)).build();
        CountDownLatch senderDone = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            while (ctx.nextMessageBytes() > 0) {
                ctx.sent(1, true);
                Thread.onSpinWait();
            }
            senderDone.countDown();
        }, ctx -> {
            await(senderDone);
            ctx.endOfStream();
        });
        List<IntervalSample> seen = new ArrayList<>();
        TransferResult r = e.run(OPTIONS, seen::add);
        assertThat(seen).isEqualTo(r.intervals());
        for (int i = 1; i < seen.size(); i++) {
            assertThat(seen.get(i).startNanos()).isEqualTo(seen.get(i - 1).endNanos());
        }
        assertThat(seen.get(0).startNanos()).isZero();
        assertThat(seen.get(0).omitted()).isTrue();
        IntervalSample firstMeasured = seen.stream().filter(i -> !i.omitted()).findFirst().orElseThrow();
        assertThat(firstMeasured.startNanos()).isEqualTo(r.windowStartNanos());
        assertThat(seen.get(seen.size() - 1).endNanos()).isEqualTo(r.windowEndNanos());
        assertThat(r.windowStartNanos()).isGreaterThanOrEqualTo(100_000_000L);
        assertThat(r.measuredNanos()).isGreaterThanOrEqualTo(300_000_000L);
        // nothing arrived, so the receiver's byte count could not have matched, and the window is empty
        assertThat(r.invalidReasons()).hasSize(2);
        assertThat(r.invalidReasons().get(0)).startsWith("no payload byte arrived in the measured window of ");
        assertThat(r.invalidReasons().get(1)).startsWith("receiver counted 0 bytes");
    }

    @Test
    void aTcpWindowThatMovedNoDataIsInvalidAndSaysWhy() throws Exception {
        // as `stream --duration 1ns --warmup 0`, with a sender that writes nothing before it is stopped
        TransferSpec s = spec(Protocol.TCP).duration(Duration.ofNanos(1)).build();
        CountDownLatch senderDone = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
            senderDone.countDown();
        }, ctx -> {
            await(senderDone);
            ctx.endOfStream();
        });
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        assertThat(r.bytesSent()).isZero();
        assertThat(r.valid()).isFalse();
        assertThat(r.invalidReasons()).singleElement().asString()
                .startsWith("no payload byte arrived in the measured window of ")
                .endsWith("(0 sent in it): lengthen the duration");
    }

    @Test
    void aUdpWindowWithoutDatagramsHasNoLossNoJitterAndIsInvalid() throws Exception {
        // a sender that sends nothing in the window (stalled, or slower to notice it than the window lasts)
        TransferSpec s = spec(Protocol.UDP).payloadBytes(100)
                .duration(Duration.ofMillis(100)).interval(Duration.ofMillis(50)).build();
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        }, receiveInto(new ArrayBlockingQueue<>(1), p -> true));
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isZero();
        assertThat(u.lossPercent()).isEmpty();
        assertThat(u.jitterNanos()).isEmpty();
        assertThat(r.intervals()).allSatisfy(i -> assertThat(i.jitterNanos()).isEmpty());
        assertThat(r.invalidReasons()).singleElement().asString()
                .startsWith("no datagram was sent in the measured window of ")
                .endsWith(" ms: lengthen the duration");
        // what a gate sees: nothing; a window in which nothing was sent has no goodput, loss or jitter
        assertThat(TransferFormat.metrics(r, "udp4", 1.0)).isEmpty();
        JsonNode json = new ObjectMapper().readTree(ResultJson.transfer(r).toJson());
        assertThat(json.get("lost").isNull()).isTrue();
        assertThat(json.get("lost_percent").isNull()).isTrue();
        assertThat(json.get("jitter_ms").isNull()).isTrue();
        assertThat(TransferFormat.summaryLine(r)).contains("datagrams 0 of 0 received  lost n/a").contains("jitter n/a ms");
    }

    @Test
    void aUdpWindowNoneOfWhoseDatagramsArrivedIsInvalidWithFullLossAndNoJitter() throws Exception {
        // the sender sends 5 datagrams once the window is open; the "network" drops them all
        TransferSpec s = spec(Protocol.UDP).payloadBytes(100).warmup(Duration.ofMillis(20))
                .duration(Duration.ofMillis(500)).build();
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            while (ctx.phase() == DatagramHeader.WARMUP && !ctx.stopRequested()) {
                Thread.onSpinWait();
            }
            for (int i = 0; i < 5 && !ctx.stopRequested(); i++) {
                ctx.phase();
                ctx.sent(100, true);
            }
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        }, receiveInto(new ArrayBlockingQueue<>(1), p -> true));
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(5);
        assertThat(u.datagramsReceived()).isZero();
        // 5 of 5 lost: 100 %
        assertThat(u.lossPercent()).hasValue(100.0);
        assertThat(u.jitterNanos()).isEmpty();
        assertThat(r.invalidReasons()).containsExactly("none of the 5 datagrams sent in the measured window of "
                + String.format(java.util.Locale.ROOT, "%.3f ms", r.measuredNanos() / 1e6) + " arrived");
        assertThat(TransferFormat.metrics(r, "udp4", 1.0)).extracting(Metric::name)
                .containsExactly("udp4_mbps", "udp4_lost_pct");
    }

    @Test
    void jitterNeedsTwoArrivalsAndAnIntervalWithoutDatagramsHasNone() throws Exception {
        // one datagram in the whole transfer: RFC 3550's estimator starts on the second, so no jitter
        TransferSpec s = spec(Protocol.UDP).payloadBytes(100).bound(Bound.messages(1)).build();
        CountDownLatch sent = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            ctx.phase();
            ctx.sent(100, true);
            sent.countDown();
        }, ctx -> {
            awaitSent(sent);
            ByteBuffer buf = ByteBuffer.allocate(100);
            DatagramHeader.write(buf, s.streamId(), 0, 0);
            ctx.datagram(buf, 100);
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsReceived()).isEqualTo(1);
        assertThat(u.lossPercent()).hasValue(0.0);
        assertThat(u.jitterNanos()).isEmpty();
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
    }

    /** Waits, at most the class's timeout, until a test's sender has sent. */
    private static void awaitSent(CountDownLatch sent) throws IOException {
        try {
            if (!sent.await(50, TimeUnit.SECONDS)) {
                throw new IOException("the test's sender did not send within 50 s");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
    }

    /** A receive loop that takes datagrams off {@code net} and accounts those whose phase {@code keep} accepts. */
    private static StreamEngine.ReceiveLoop receiveInto(BlockingQueue<ByteBuffer> net, IntPredicate keep) {
        return ctx -> {
            while (!ctx.stopRequested()) {
                ByteBuffer d;
                try {
                    d = net.poll(1, TimeUnit.MILLISECONDS);
                } catch (InterruptedException ex) {
                    throw new IOException(ex);
                }
                if (d != null && keep.test(d.getInt(24))) {
                    ctx.datagram(d, d.capacity());
                }
            }
        };
    }

    @Test
    void tcpBytesSentInTheWarmupThatArriveInTheWindowAreNotTheWindows() throws Exception {
        // The sender writes 10 messages of 1000 bytes in the warm-up and 5 once it has taken the
        // window up; the receiver reads nothing until all 15 are written, so every byte arrives
        // inside the window. The window's traffic is the 5 messages sent in it: 5000 bytes sent
        // and received, not the 15000 that arrived (the count bound of 15000 ends the window at
        // the receiver's last data, so the test does not depend on timing).
        TransferSpec s = spec(Protocol.TCP).payloadBytes(1000).bound(Bound.bytes(15_000))
                // a warm-up long enough that the sender writes its first messages in it even when a
                // loaded host starts the sending thread late
                .warmup(Duration.ofSeconds(1)).interval(Duration.ofMillis(20)).build();
        BlockingQueue<Long> pipe = new ArrayBlockingQueue<>(1024);
        CountDownLatch allWritten = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            int warm = 0;
            int n;
            while ((n = ctx.nextMessageBytes()) > 0) {
                if (ctx.phase() == DatagramHeader.WARMUP && warm == 10) {
                    Thread.onSpinWait(); // the warm-up's share is written: wait for the window
                    continue;
                }
                warm += ctx.phase() == DatagramHeader.WARMUP ? 1 : 0;
                put(pipe, n);
                ctx.sent(n, true);
            }
            put(pipe, END);
            allWritten.countDown();
        }, ctx -> {
            await(allWritten);
            long n;
            while ((n = take(pipe)) != END) {
                ctx.received((int) n);
            }
            ctx.endOfStream();
        });
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        assertThat(r.bytesSent()).isEqualTo(15_000);
        assertThat(r.bytesReceived()).isEqualTo(15_000);
        assertThat(r.windowBytesSent()).isEqualTo(5_000);
        assertThat(r.windowBytesReceived()).isEqualTo(5_000);
        assertThat(r.intervals().stream().filter(i -> !i.omitted()).mapToLong(IntervalSample::bytes).sum())
                .isEqualTo(5_000);
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
    }

    @Test
    void udpDatagramsSentInTheWarmupThatArriveInTheWindowAreNotTheWindows() throws Exception {
        // As above with 100-byte datagrams: 10 stamped in the warm-up, 5 in the window, all
        // delivered after the last was sent. The window holds 5 datagrams, 500 bytes.
        TransferSpec s = spec(Protocol.UDP).payloadBytes(100).bound(Bound.messages(15))
                // a warm-up long enough that the sender stamps its first datagrams in it even when a
                // loaded host starts the sending thread late
                .warmup(Duration.ofSeconds(1)).interval(Duration.ofMillis(20)).build();
        BlockingQueue<Long> pipe = new ArrayBlockingQueue<>(1024);
        CountDownLatch allSent = new CountDownLatch(1);
        StreamEngine e = new StreamEngine(s, Clock.system(), ctx -> {
            int warm = 0;
            while (ctx.nextMessageBytes() > 0) {
                int phase = ctx.phase();
                if (phase == DatagramHeader.WARMUP && warm == 10) {
                    Thread.onSpinWait();
                    continue;
                }
                warm += phase == DatagramHeader.WARMUP ? 1 : 0;
                put(pipe, ctx.nextSequence() * DatagramHeader.PHASES + phase);
                ctx.sent(100, true);
            }
            allSent.countDown();
        }, ctx -> {
            await(allSent);
            ByteBuffer buf = ByteBuffer.allocate(100);
            Long v;
            while ((v = pipe.poll()) != null) {
                DatagramHeader.write(buf, s.streamId(), v / DatagramHeader.PHASES, 0, (int) (v % DatagramHeader.PHASES));
                ctx.datagram(buf, 100);
            }
            while (!ctx.stopRequested()) {
                Thread.onSpinWait();
            }
        });
        TransferResult r = e.run(OPTIONS, IntervalListener.NONE);
        UdpStats u = r.udp().orElseThrow();
        assertThat(r.bytesReceived()).isEqualTo(1_500);
        assertThat(r.windowBytesSent()).isEqualTo(500);
        assertThat(r.windowBytesReceived()).isEqualTo(500);
        assertThat(u.datagramsSent()).isEqualTo(5);
        assertThat(u.datagramsReceived()).isEqualTo(5);
        List<IntervalSample> window = r.intervals().stream().filter(i -> !i.omitted()).toList();
        assertThat(window.stream().mapToLong(IntervalSample::bytes).sum()).isEqualTo(500);
        assertThat(window.stream().mapToLong(IntervalSample::datagrams).sum()).isEqualTo(5);
    }

    private static void put(BlockingQueue<Long> q, long v) throws IOException {
        try {
            if (!q.offer(v, 5, TimeUnit.SECONDS)) {
                throw new IOException("queue full");
            }
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    private static long take(BlockingQueue<Long> q) throws IOException {
        try {
            Long v = q.poll(5, TimeUnit.SECONDS);
            if (v == null) {
                throw new IOException("queue empty");
            }
            return v;
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    private static void await(CountDownLatch l) throws IOException {
        try {
            if (!l.await(10, TimeUnit.SECONDS)) {
                throw new IOException("latch not released");
            }
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }
}
