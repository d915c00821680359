package io.linerate.core;
import io.linerate.core.spi.Pacer;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Waits for a {@link Pacer}'s deadline without burning a core, in one of two modes.
 *
 * <p><b>Tick</b> (a pacing timer {@code T > 0}, as iperf3's {@code --pacing-timer}, 1 ms by
 * default there and in {@link TransferSpec}): a wait that begins {@code r} ns before its deadline
 * ends at {@code max(r, T)} ns after it began, so the sender wakes at most about once per tick
 * and then sends every message already due, back to back, each only once its own deadline has
 * passed. Senders take {@code T} from {@link #tickFor}, which shortens it at high rates so that a
 * burst holds at most {@value #MAX_BURST_MESSAGES} messages. A message may so leave up to about {@code T} late, but never early, and the rate holds:
 * the pacer's schedule is kept from its origin, and a tick is far shorter than the
 * {@value Pacer#MAX_CATCH_UP_NANOS} ns a late sender may catch up. A tick never spins: when the
 * wake-up lands a little early it parks again for what is left.
 *
 * <p><b>Exact</b> ({@code T = 0}): parks until shortly before the deadline, then hands the last
 * few microseconds to an idle strategy (a busy spin by default), so every message leaves within
 * a few microseconds of its deadline, at the cost of a wake-up per message and the spin.
 *
 * <p>A park wakes late: Linux lets a timer fire up to the thread's timer slack (50 µs by default)
 * after the time asked for, and the wake-up takes a few microseconds more. That lateness, the
 * <i>slack</i>, is measured on every park that ran its full length (one that was cut short by an
 * unpark or a spurious wake-up measures nothing), as an exponentially weighted mean of the
 * samples, each clamped to [0, {@value #MAX_SLACK_NANOS}] ns, the estimate starting at 0: a sample
 * above the estimate moves it up by 1/16 of the difference, one below moves it down by 1/4. A
 * wait that should end in {@code w} ns parks for {@code w − slack} ns when {@code w} exceeds the
 * slack, so that it wakes about on time; in exact mode whatever is left is spent in the idle
 * strategy, in tick mode in one more park.
 *
 * <p>The caller loops, so that it can check its own stop flag and deadline between steps:
 * <pre>{@code
 * long wait;
 * while (!stop && (wait = pacer.nanosUntilNext(sent, now = clock.nanoTime())) > 0) {
 *     pacingWait.step(now, wait);
 * }
 * }</pre>
 * One instance per waiting thread; {@link #step} allocates nothing and never logs.
 */
public final class PacingWait {
    /**
     * Most messages one tick lets out back to back (16): at a high rate a tick is shortened to
     * this many messages' time ({@link #tickFor}), so that a burst stays well inside a receiver's
     * default buffer (Linux's 212992-byte SO_RCVBUF holds about 90 datagrams of 1400 bytes).
     */
    public static final int MAX_BURST_MESSAGES = 16;

    /**
     * The tick a sender uses: the pacing timer, or, where that would let more than
     * {@value #MAX_BURST_MESSAGES} messages out at once, their time at the rate. Measured with
     * 1400-byte datagrams at 1 Gbit/s into an iperf3 server on loopback, a 1 ms tick (89 datagrams
     * a burst) lost about 16% to the receiver's buffer, where iperf3's own client, which checks its
     * rate after every datagram, lost about 1%.
     *
     * @param timerNanos the pacing timer, ns, 0..{@value #MAX_TICK_NANOS}; 0 stays 0 (exact mode)
     * @param bitsPerSecond the target rate, bit/s; 0 (unlimited) keeps the timer
     * @param messageBits bits of one message as the rate counts them, at least 1
     * @return the tick, ns: at most {@code timerNanos}, at least 1 unless {@code timerNanos} is 0
     */
    public static long tickFor(long timerNanos, long bitsPerSecond, long messageBits) {
        if (timerNanos == 0 || bitsPerSecond <= 0) {
            return timerNanos;
        }
        double burstNanos = (double) MAX_BURST_MESSAGES * Math.max(1, messageBits) * 1e9 / bitsPerSecond;
        return burstNanos >= timerNanos ? timerNanos : Math.max(1, (long) burstNanos);
    }

    /**
     * The wait of a sender of {@code spec}: its pacing timer, shortened by {@link #tickFor} for its
     * rate and payload.
     */
    public static PacingWait of(Clock clock, TransferSpec spec) {
        return new PacingWait(clock, tickFor(spec.pacingTimer().toNanos(), spec.rateBitsPerSecond(), 8L * spec.payloadBytes()));
    }

    /** Longest single park, ns (10 ms): a waiting sender sees a stop request within about this. */
    public static final long MAX_PARK_NANOS = 10_000_000L;
    /** Largest slack sample taken into the estimate, ns (1 ms): one preemption must not make every wait spin. */
    public static final long MAX_SLACK_NANOS = 1_000_000L;
    /**
     * Longest pacing timer accepted, ns (10 ms): half of {@link Pacer#MAX_CATCH_UP_NANOS}, so that
     * a tick's lateness is always caught up and never forgiven.
     */
    public static final long MAX_TICK_NANOS = 10_000_000L;

    private static final int UP_SHIFT = 4;
    private static final int DOWN_SHIFT = 2;
    private static final int DECAY_SHIFT = 4;

    /** Parks the calling thread; {@link LockSupport#parkNanos(long)} outside tests. */
    @FunctionalInterface
    public interface Parker {
        /** @param nanos how long to park, more than 0 */
        void park(long nanos);
    }

    private final Clock clock;
    private final Parker parker;
    private final IdleStrategy tail;
    private final long tickNanos;
    private long slackNanos;
    private long deadline = Long.MIN_VALUE;
    private long wakeAt;
    private long parks;

    /**
     * Exact mode: parks with {@link LockSupport#parkNanos(long)} and busy-spins the tail.
     *
     * @param clock the pacer's clock
     */
    public PacingWait(Clock clock) {
        this(clock, 0);
    }

    /**
     * Parks with {@link LockSupport#parkNanos(long)}; in exact mode busy-spins the tail.
     *
     * @param clock the pacer's clock
     * @param tickNanos the pacing timer, ns: 0 for exact mode, else the shortest wait (tick mode)
     * @throws IllegalArgumentException if {@code tickNanos} is outside [0, {@value #MAX_TICK_NANOS}]
     */
    public PacingWait(Clock clock, long tickNanos) {
        this(clock, tickNanos, LockSupport::parkNanos, new BusySpinIdleStrategy());
    }

    /**
     * Exact mode with the given parker and tail.
     *
     * @param clock the pacer's clock; read after every park to measure its lateness
     * @param parker how to park
     * @param tail what to do when the deadline is closer than the slack, one turn per {@link #step}
     */
    public PacingWait(Clock clock, Parker parker, IdleStrategy tail) {
        this(clock, 0, parker, tail);
    }

    /**
     * @param clock the pacer's clock; read after every park to measure its lateness
     * @param tickNanos the pacing timer, ns: 0 for exact mode, else the shortest wait (tick mode)
     * @param parker how to park
     * @param tail exact mode: what to do when the deadline is closer than the slack, one turn per
     *     {@link #step}; tick mode never uses it
     * @throws IllegalArgumentException if {@code tickNanos} is outside [0, {@value #MAX_TICK_NANOS}]
     */
    public PacingWait(Clock clock, long tickNanos, Parker parker, IdleStrategy tail) {
        if (tickNanos < 0 || tickNanos > MAX_TICK_NANOS) {
            throw new IllegalArgumentException("pacing timer " + tickNanos + " ns is out of range; allowed: 0 (exact: park, "
                    + "then spin).." + MAX_TICK_NANOS + " ns");
        }
        this.clock = clock;
        this.tickNanos = tickNanos;
        this.parker = parker;
        this.tail = tail;
    }

    /**
     * One step towards a deadline. A new deadline (one that differs from the last step's) starts a
     * wait that ends at {@code now + remainingNanos}, in tick mode at {@code now + max(remainingNanos,
     * T)}. If {@code w} ns of the wait are left, one park of {@code min(w − slack, MAX_PARK_NANOS)}
     * ns when {@code w} exceeds the slack estimate; otherwise, in exact mode, one turn of the idle
     * strategy, and in tick mode a park of {@code w} ns. Returns early for the caller to read the
     * clock and ask its pacer again.
     *
     * @param now the clock reading {@code remainingNanos} was computed from
     * @param remainingNanos ns until the deadline; nothing happens when 0 or less
     */
    public void step(long now, long remainingNanos) {
        if (remainingNanos <= 0) {
            return;
        }
        long deadline = now + remainingNanos;
        boolean newWait = deadline != this.deadline;
        if (newWait) {
            this.deadline = deadline;
            this.wakeAt = now + Math.max(remainingNanos, tickNanos);
        }
        long left = wakeAt - now; // at least remainingNanos: a wait never ends before its deadline
        if (left > slackNanos) {
            park(now, Math.min(left - slackNanos, MAX_PARK_NANOS));
            tail.reset();
        } else if (tickNanos > 0) {
            // woke a little early: park again rather than spin, a slack's lateness is well within a tick
            park(now, left);
        } else {
            if (newWait) {
                // a whole wait inside the slack: no park measures the slack now, so let it decay
                // until one does, or an estimate raised by a burst of late wake-ups would stick
                slackNanos -= slackNanos >> DECAY_SHIFT;
            }
            tail.idle();
        }
    }

    private void park(long now, long request) {
        parker.park(request);
        long late = clock.nanoTime() - (now + request);
        if (late >= 0) {
            long sample = Math.min(late, MAX_SLACK_NANOS);
            slackNanos += sample > slackNanos ? (sample - slackNanos) >> UP_SHIFT : -((slackNanos - sample) >> DOWN_SHIFT);
            parks++;
        }
    }

    /** @return the pacing timer, ns; 0 in exact mode */
    public long tickNanos() {
        return tickNanos;
    }

    /** @return the current estimate of a park's lateness, ns, in [0, {@value #MAX_SLACK_NANOS}] */
    public long slackNanos() {
        return slackNanos;
    }

    /** @return how many parks ran their full length and were measured */
    public long measuredParks() {
        return parks;
    }
}
