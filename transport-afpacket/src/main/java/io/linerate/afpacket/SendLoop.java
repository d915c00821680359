package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.PacingWait;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.spi.Pacer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.agrona.concurrent.IdleStrategy;

/**
 * The sending thread's loop, one for both {@link FrameSender}s: batches of frames, round robin
 * over the streams, paced from the start and anew from the window's start, each frame stamped with
 * the phase of the run it leaves in. When the kernel has no room, it counts a retry and waits one
 * turn of its Agrona {@link IdleStrategy} ({@link io.linerate.core.Idle}, see {@link IdleStrategies}). After the window it lets frames still queued leave, bounded by
 * the drain timeout. Nothing in the loop allocates or logs.
 */
final class SendLoop implements Runnable {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Longest stretch of paced traffic one send call carries, ns (1 ms, iperf3's pacing timer). */
    static final long PACED_BATCH_NANOS = 1_000_000L;

    private final RawTransferSpec spec;
    private final Clock clock;
    private final RunSchedule schedule;
    private final FrameSender sender;
    private final TxStream[] streams;
    private final IdleStrategy idle;
    private final ReceiverCredit credit;
    private volatile boolean stop;
    // results, read after the thread ended
    private long firstWindowNanos = Long.MIN_VALUE;
    private long lastSendNanos;
    private long retries;
    private long cpuNanos;
    private Throwable error;

    SendLoop(RawTransferSpec spec, Clock clock, RunSchedule schedule, FrameSender sender, TxStream[] streams, IdleStrategy idle) {
        this(spec, clock, schedule, sender, streams, idle, ReceiverCredit.none());
    }

    /** @param credit the receiver's credit, which bounds the frames of each stream in flight */
    SendLoop(RawTransferSpec spec, Clock clock, RunSchedule schedule, FrameSender sender, TxStream[] streams, IdleStrategy idle,
             ReceiverCredit credit) {
        this.credit = credit;
        this.spec = spec;
        this.clock = clock;
        this.schedule = schedule;
        this.sender = sender;
        this.streams = streams;
        this.idle = idle;
    }

    /** Asks the loop to stop at its next turn. */
    void requestStop() {
        stop = true;
    }

    @Override
    public void run() {
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        try {
            send();
            long deadline = clock.nanoTime() + spec.drainTimeout().toNanos();
            if (!stop && sender.drain(clock, deadline, idle) && firstWindowNanos != Long.MIN_VALUE) {
                lastSendNanos = clock.nanoTime();
            }
        } catch (AfPacketException | RuntimeException | Error e) {
            error = e;
        } finally {
            for (TxStream s : streams) {
                s.publish();
            }
            cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu0;
        }
    }

    private void send() throws AfPacketException {
        Pacer pacer = new Pacer(spec.rateBitsPerSecond());
        pacer.start(schedule.t0());
        PacingWait pacingWait = new PacingWait(clock);
        long measureStart = schedule.measureStart();
        long end = schedule.end();
        int batch = pacedBatch(spec.batch(), spec.rateBitsPerSecond(), spec.frameSize());
        int frameSize = spec.frameSize();
        boolean inWindow = false;
        long bytesSent = 0;
        int k = 0;
        while (!stop) {
            long now = clock.nanoTime();
            if (now >= end) {
                break;
            }
            if (!inWindow && now >= measureStart) {
                inWindow = true;
                pacer.anchor(measureStart, bytesSent);
            }
            // The measured window has a schedule of its own from its start, so the warm-up's debt is
            // never caught up inside it; a batch leaves once its last frame is due, so the window's
            // frames never exceed its length at the target rate. PacingWait parks until shortly
            // before the next send time.
            long wait = Math.min(pacer.nanosUntilNext(bytesSent + (long) batch * frameSize, now), end - now);
            if (wait > 0) {
                pacingWait.step(now, wait);
                continue;
            }
            TxStream s = streams[k];
            int granted = credit.grant(k, s.nextSeq, batch);
            if (granted == 0) {
                credit.waiting(k, s.nextSeq, now); // throws once credit has not returned in time
                idle.idle();
                continue;
            }
            credit.granted();
            int phase = schedule.phaseAt(now);
            int n = sender.queue(s, granted, now, phase);
            if (n > 0) {
                s.sent(n, phase);
                credit.sent(k, s.nextSeq);
                if (phase == DatagramHeader.WINDOW && firstWindowNanos == Long.MIN_VALUE) {
                    firstWindowNanos = now;
                }
                bytesSent += (long) n * frameSize;
                k = k + 1 == streams.length ? 0 : k + 1;
            } else {
                retries++;
            }
            boolean taken = sender.flush();
            if (n > 0) {
                lastSendNanos = clock.nanoTime();
                s.publish();
            }
            if (n == 0 || !taken) {
                idle.idle();
            } else {
                idle.reset();
            }
        }
    }

    /**
     * The frames per send call: the spec's batch, or, when paced, at most the frames due in one
     * {@link #PACED_BATCH_NANOS} (at least 1). A batch leaves once its last frame is due, so at a
     * low rate a full batch would hold frames back for up to a batch's time and the sender would
     * fall short of the rate by up to a batch, and send in bursts a batch apart.
     *
     * @param batch the spec's batch, 1..1024
     * @param bitsPerSecond the L2 rate, bit/s; 0 = unlimited
     * @param frameSize bytes per frame
     */
    static int pacedBatch(int batch, long bitsPerSecond, int frameSize) {
        if (bitsPerSecond == 0) {
            return batch;
        }
        double perBatchTime = bitsPerSecond / (8.0 * frameSize) * PACED_BATCH_NANOS / 1e9;
        return (int) Math.max(1, Math.min(batch, (long) perBatchTime));
    }

    /** @return whether any frame left in the measured window; only after the thread ended */
    boolean sentInWindow() {
        return firstWindowNanos != Long.MIN_VALUE;
    }

    /** @return the clock reading after the last frame was handed over; only after the thread ended */
    long lastSendNanos() {
        return lastSendNanos;
    }

    /** @return the receiver's credit this loop sent under (its counts only after the thread ended) */
    ReceiverCredit credit() {
        return credit;
    }

    /** @return send attempts that found no room; only after the thread ended */
    long retries() {
        return retries;
    }

    /** @return CPU time of the sending thread, ns; only after the thread ended */
    long cpuNanos() {
        return cpuNanos;
    }

    /** @return what ended the loop early, or null; only after the thread ended */
    Throwable error() {
        return error;
    }
}
