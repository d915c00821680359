package io.linerate.core.spi.engine;

import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.PacingWait;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.Pacer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a transport's send loop reads and reports while {@link StreamEngine} runs it. Every method
 * is allocation-free; only the sending thread calls the mutators.
 *
 * <p>A send loop is: {@code while (ctx.nextMessageBytes() > 0 && ctx.pace()) { write it;
 * ctx.sent(bytes, completedMessage) }}.
 */
public final class SenderContext {
    private final Clock clock;
    private final int payloadBytes;
    private final long byteLimit;
    private final long messageLimit;
    private final Pacer pacer;
    private final PacingWait pacingWait;
    private final long ioTimeoutNanos;
    private final boolean wholeMessages;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong messages = new AtomicLong();
    private final long[] messagesByPhase = new long[io.linerate.core.DatagramHeader.PHASES];
    private volatile boolean stop;
    private volatile int phase = io.linerate.core.DatagramHeader.WARMUP;
    private volatile long windowOriginNanos;
    private volatile long windowBaseBytes = -1;
    private int lastPhase = io.linerate.core.DatagramHeader.WARMUP;
    private long localBytes;
    private long localMessages;
    private boolean paced;

    /**
     * Made by {@link StreamEngine}; public so that a transport can drive its loop in a test.
     *
     * @param spec the transfer's spec
     * @param clock the time source of every reading
     */
    public SenderContext(TransferSpec spec, Clock clock) {
        this.clock = clock;
        this.payloadBytes = spec.payloadBytes();
        this.pacer = new Pacer(spec.rateBitsPerSecond());
        this.pacingWait = PacingWait.of(clock, spec);
        this.ioTimeoutNanos = spec.ioTimeout().toNanos();
        this.wholeMessages = spec.protocol() == io.linerate.core.Protocol.UDP;
        Bound b = spec.bound();
        this.byteLimit = b.kind() == Bound.Kind.BYTES ? b.amount() : Long.MAX_VALUE;
        this.messageLimit = b.kind() == Bound.Kind.MESSAGES ? b.amount() : Long.MAX_VALUE;
    }

    /**
     * Sets the pacing origin; {@link StreamEngine} calls it when the transfer starts, before the
     * sending thread runs. The sending thread's first {@link #nanosUntilNextSend} moves it to that
     * call's reading when it is later ({@link Pacer#notBefore}): the first tick of a sender whose
     * thread started late lets out that tick's share, not the start-up's debt.
     */
    public void start(long nanos) {
        pacer.start(nanos);
    }

    /**
     * Opens the measured window: the sender takes the new phase up before its next message and
     * starts the window's own pacing schedule at {@code originNanos}, so that no debt of the
     * warm-up is caught up inside the window (see {@link Pacer}). {@link StreamEngine} calls it
     * right after the reading that opens the window, with that reading's time.
     *
     * @param originNanos the clock reading that opened the window
     */
    void openWindow(long originNanos) {
        windowOriginNanos = originNanos;
        phase = io.linerate.core.DatagramHeader.WINDOW;
    }

    /** @return the clock every reading comes from */
    public Clock clock() {
        return clock;
    }

    /** @return the bound on a wait for the socket to accept more data, ns */
    public long ioTimeoutNanos() {
        return ioTimeoutNanos;
    }

    /** @return whether the engine has asked the sender to stop (the duration is over, or a fault) */
    public boolean stopRequested() {
        return stop;
    }

    /** Asks the loop to stop; {@link StreamEngine} calls it, and so may a test. */
    public void requestStop() {
        stop = true;
    }

    /**
     * @return payload bytes of the next message: the spec's payload; for TCP less at the end of a
     *     byte bound (a UDP datagram is always whole, so a byte bound may be exceeded by less than
     *     one datagram); 0 when the bound is reached or a stop was requested
     */
    public int nextMessageBytes() {
        observePhase();
        if (stop || localMessages >= messageLimit) {
            return 0;
        }
        long left = byteLimit - localBytes;
        if (left <= 0) {
            return 0;
        }
        return wholeMessages ? payloadBytes : (int) Math.min(payloadBytes, left);
    }

    /**
     * @return the phase of the transfer now ({@link io.linerate.core.DatagramHeader#WARMUP},
     *     {@code WINDOW} or {@code AFTER}), to stamp into the next datagram; messages completed by
     *     {@link #sent} are counted in this phase
     */
    public int phase() {
        observePhase();
        return lastPhase;
    }

    /**
     * Takes up a phase the engine set: on entering the window, the bytes sent so far become the
     * window's base and the pacer starts the window's schedule. Every message after this belongs
     * to the window.
     */
    private void observePhase() {
        int p = phase;
        if (p != lastPhase) {
            if (p == io.linerate.core.DatagramHeader.WINDOW) {
                pacer.anchor(windowOriginNanos, localBytes);
                windowBaseBytes = localBytes;
            }
            lastPhase = p;
        }
    }

    void phase(int p) {
        phase = p;
    }

    /**
     * @return bytes the sender had sent when it took the window up: the first byte of the window's
     *     traffic is the byte after them; -1 while the sender has not taken the window up
     */
    long windowBaseBytes() {
        return windowBaseBytes;
    }

    /** Messages completed in a phase; only after the sending thread ended. */
    long messages(int p) {
        return messagesByPhase[p];
    }

    /** @return payload bytes the kernel accepted so far */
    public long bytesSent() {
        return localBytes;
    }

    /** @return sequence number of the next message (messages completed so far) */
    public long nextSequence() {
        return localMessages;
    }

    /**
     * Waits until the pacer lets the next message leave, parking for at least the spec's pacing
     * timer ({@link PacingWait}). Returns at once at an unlimited rate. If the window opens during the
     * wait, the message waits on the window's schedule.
     *
     * @return false if a stop was requested while waiting
     */
    public boolean pace() {
        if (pacer.unlimited()) {
            return !stop;
        }
        while (true) {
            if (stop) {
                return false;
            }
            observePhase();
            long now = clock.nanoTime();
            long remaining = nanosUntilNextSend(now);
            if (remaining <= 0) {
                return true;
            }
            pacingWait.step(now, remaining);
        }
    }

    /**
     * How many whole messages may leave now, for a loop that hands the kernel several per call
     * ({@code sendmmsg(2)}, UDP GSO): call it after {@link #pace()} returned true. It counts the
     * next message and every one after it whose last byte is due by now on the pacing schedule
     * ({@link #nanosUntilNextSend}), within the bound; at an unlimited rate, as many as the bound
     * leaves. The loop then stamps each with {@link #nextSequence()} + k and {@link #phase()}, and
     * reports each the kernel accepted with {@code sent(bytes, true)}.
     *
     * @param max the most the loop takes, at least 1
     * @return 0 when the bound is reached or a stop was requested; else 1..max
     * @throws IllegalArgumentException for a max below 1
     */
    public int messagesDue(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max " + max + " messages is out of range; allowed: 1 or more");
        }
        int next = nextMessageBytes();
        if (next == 0) {
            return 0;
        }
        long left = Math.min(max, messageLimit - localMessages);
        if (byteLimit != Long.MAX_VALUE) {
            left = Math.min(left, (byteLimit - localBytes + next - 1) / next);
        }
        if (pacer.unlimited()) {
            return (int) left;
        }
        long now = clock.nanoTime();
        int k = 1;
        while (k < left && pacer.nanosUntilNext(localBytes + (long) (k + 1) * next, now) <= 0) {
            k++;
        }
        return k;
    }

    /**
     * The next message may leave once its last byte is due: its deadline is that of the byte after
     * {@code bytesSent + nextMessageBytes()}. So the bytes let out since the schedule's origin never
     * exceed {@code rate × elapsed}, however large a message is against the window (a 128 KiB
     * write at 10 Mbit/s is 105 ms of traffic); the first message of a schedule waits one message's
     * time.
     *
     * @param now a reading of the clock
     * @return ns the next message must wait; see {@link Pacer#nanosUntilNext}
     */
    public long nanosUntilNextSend(long now) {
        int next = nextMessageBytes(); // takes up a window opened meanwhile, and its schedule, first
        if (!paced) {
            paced = true;
            pacer.notBefore(now, localBytes);
        }
        return pacer.nanosUntilNext(localBytes + next, now);
    }

    /**
     * Reports bytes the kernel accepted.
     *
     * @param n bytes written, at least 0
     * @param messageCompleted whether this write completed a message
     */
    public void sent(int n, boolean messageCompleted) {
        localBytes += n;
        bytes.lazySet(localBytes);
        if (messageCompleted) {
            localMessages++;
            messagesByPhase[lastPhase]++;
            messages.lazySet(localMessages);
        }
    }

    long bytes() {
        return bytes.get();
    }

    long messages() {
        return messages.get();
    }
}
