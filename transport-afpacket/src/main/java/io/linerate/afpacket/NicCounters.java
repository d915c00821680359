package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.Rates;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Process-local 64-bit totals of one interface's counters (DESIGN rule 2). Raw counters start at
 * boot, may wrap at 2^32 (the driver decides; sysfs and ethtool both hand out 64-bit values),
 * reset, and now and then read low once. Each {@link #read()} reads the raw counters between two
 * clock readings and adds only forward motion to the totals, counter by counter:
 *
 * <ul>
 *   <li>a reading at or above the last good one adds the difference and becomes the last good one;</li>
 *   <li>a reading below it (a dip) adds nothing yet and leaves the counter <em>in doubt</em>; the
 *       next reading decides:
 *     <ul>
 *       <li>at or above the last good reading: the dip was a {@link CounterEvent#GLITCH glitch},
 *           and forward motion is measured from the last good reading (1000, 999, 1001 adds 1;
 *           1000, 1050, 1100, 0, 1150, 1200 adds 200);</li>
 *       <li>below it: the dip stands, a {@link CounterEvent#RESET reset}, which adds nothing. The
 *           dip becomes the base and the reading is then taken against it.</li>
 *     </ul></li>
 *   <li>a changed ifindex (the interface was re-created) is a reset of every counter.</li>
 * </ul>
 *
 * <p>Where the readings fit more than one explanation, the smallest forward motion consistent with
 * them is counted and the step is flagged, so the total never overstates (it may understate).
 * The link's capacity bounds the explanations: between two samplings a counter moves at most
 * {@code speed / 8} bytes or {@code speed / 672} frames per second (a minimum Ethernet frame takes
 * 84 bytes of wire time), over the span from the clock reading before the earlier read to the one
 * after the later read.
 *
 * <ul>
 *   <li>A glitch is {@link CounterEvent#AMBIGUOUS ambiguous} when a reset followed by traffic fits
 *       that bound too (1000, 0, 1500: a glitch adds 500, a reset then 1500 frames adds 1500);
 *       with the speed unknown every glitch is.</li>
 *   <li>A step is a {@link CounterEvent#POSSIBLE_WRAP possible wrap} when a 32-bit wrap fits it
 *       too: the counter was never seen at or above 2^32, the link's speed is known, and it could
 *       have carried 2^32 more than was counted (a dip that stands, or a climb that could hide a
 *       whole wrap). On a 100 Gbit/s link, byte readings 1 s apart of 3000000000, 2999999999,
 *       2999999999 add 0 (a reset), not the 4294967295 of a wrap, and are flagged. A link fast
 *       enough for a wrap makes one possible, not likely; with the speed unknown (a virtual
 *       interface, whose counters are the kernel's 64-bit ones, or a link that is down) no step is
 *       a possible wrap.</li>
 * </ul>
 *
 * <p>A dip in the last reading of a run is only decided by a reading after it: {@link
 * #readSettled(Duration)} reads again while a counter is in doubt. A counter still in doubt is
 * named by {@link Snapshot#inDoubt()}: its total leaves the low reading out (the motion up to the
 * last good reading is kept). Every glitch, ambiguity, possible wrap and reset is counted per
 * counter in every snapshot and delta, so results report them.
 *
 * <p>Totals start at 0 with the first reading. Take baselines for every interface in one place
 * before traffic starts and compute rates with {@link Snapshot#minus}. Not thread-safe.
 */
public final class NicCounters {
    /** Readings {@link #readSettled} takes at most after the first while a counter is in doubt. */
    public static final int SETTLE_READINGS = 2;

    private static final NicCounter[] COUNTERS = NicCounter.values();
    private static final CounterEvent[] EVENTS = CounterEvent.values();

    private final String interfaceName;
    private final CounterSource source;
    private final Clock clock;
    private final CounterTrack[] tracks = new CounterTrack[COUNTERS.length];
    private int ifindex = -1;
    private boolean started;
    private long lastLinkBps;

    /**
     * @param interfaceName the interface, for messages
     * @param source the raw counters
     * @param clock stamps each reading right before and right after it was read
     */
    public NicCounters(String interfaceName, CounterSource source, Clock clock) {
        this.interfaceName = Objects.requireNonNull(interfaceName, "interfaceName");
        this.source = Objects.requireNonNull(source, "source");
        this.clock = Objects.requireNonNull(clock, "clock");
        for (NicCounter c : COUNTERS) {
            tracks[c.ordinal()] = new CounterTrack(c);
        }
    }

    /** @return counters of {@code interfaceName} from {@code /sys/class/net} */
    public static NicCounters of(String interfaceName, Clock clock) {
        return new NicCounters(interfaceName, CounterSource.sysfs(interfaceName), clock);
    }

    /**
     * Totals at one instant.
     *
     * @param interfaceName the interface
     * @param nanos clock reading taken right after the raw counters were read, ns
     * @param totals accumulated forward motion since the first reading, by {@link NicCounter#ordinal()}
     * @param events counts of each {@link CounterEvent} so far, at
     *     {@code event.ordinal() * NicCounter.values().length + counter.ordinal()}
     * @param inDoubt counters whose latest reading dipped and awaits the next one
     */
    public record Snapshot(String interfaceName, long nanos, long[] totals, long[] events, Set<NicCounter> inDoubt) {
        /** Copies {@code inDoubt}. */
        public Snapshot {
            inDoubt = Collections.unmodifiableSet(inDoubt.isEmpty() ? EnumSet.noneOf(NicCounter.class) : EnumSet.copyOf(inDoubt));
        }

        /** @return the accumulated total of {@code c} */
        public long get(NicCounter c) {
            return totals[c.ordinal()];
        }

        /** @return how often {@code e} happened to {@code c} so far */
        public long count(NicCounter c, CounterEvent e) {
            return events[index(c, e)];
        }

        /**
         * @param earlier a snapshot of the same counters taken before this one
         * @return the change from {@code earlier} to this one; counters in doubt in either are in
         *     doubt over the span
         */
        public Delta minus(Snapshot earlier) {
            long[] d = new long[totals.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = totals[i] - earlier.totals[i];
            }
            long[] e = new long[events.length];
            for (int i = 0; i < e.length; i++) {
                e[i] = events[i] - earlier.events[i];
            }
            Set<NicCounter> doubt = EnumSet.noneOf(NicCounter.class);
            doubt.addAll(inDoubt);
            doubt.addAll(earlier.inDoubt);
            return new Delta(interfaceName, nanos - earlier.nanos, d, e, doubt);
        }
    }

    /**
     * The change between two snapshots.
     *
     * @param nanos time between the two readings, ns
     * @param counts change of each total
     * @param events counts of each {@link CounterEvent} in between, indexed as in {@link Snapshot}
     * @param inDoubt counters in doubt at the start or the end of the span
     */
    public record Delta(String interfaceName, long nanos, long[] counts, long[] events, Set<NicCounter> inDoubt) {
        /** Copies {@code inDoubt}. */
        public Delta {
            inDoubt = Collections.unmodifiableSet(inDoubt.isEmpty() ? EnumSet.noneOf(NicCounter.class) : EnumSet.copyOf(inDoubt));
        }

        /** @return the change of {@code c} */
        public long get(NicCounter c) {
            return counts[c.ordinal()];
        }

        /** @return {@code c} per second over the interval; empty for a zero-length interval */
        public OptionalDouble perSecond(NicCounter c) {
            return Rates.perSecond(get(c), nanos);
        }

        /** @return how often {@code e} happened to {@code c} in the span */
        public long count(NicCounter c, CounterEvent e) {
            return events[index(c, e)];
        }

        /** @return how often {@code e} happened to any counter in the span */
        public long count(CounterEvent e) {
            long n = 0;
            for (NicCounter c : COUNTERS) {
                n += count(c, e);
            }
            return n;
        }

        /** @return whether every counter moved only forward, with no event and none in doubt */
        public boolean clean() {
            for (long e : events) {
                if (e != 0) {
                    return false;
                }
            }
            return inDoubt.isEmpty();
        }

        /**
         * @return one line per counter with an event or in doubt, in counter order, such as
         *     {@code rx_packets: 1 glitch (1 ambiguous: a reset followed by traffic fits too; counted
         *     as a glitch, the total may be low)}; empty when {@link #clean()}
         */
        public List<String> notes() {
            List<String> out = new ArrayList<>();
            for (NicCounter c : COUNTERS) {
                List<String> parts = new ArrayList<>();
                long glitches = count(c, CounterEvent.GLITCH);
                long ambiguous = count(c, CounterEvent.AMBIGUOUS);
                if (glitches > 0) {
                    parts.add(plural(glitches, "glitch", "glitches") + (ambiguous == 0 ? ""
                            : " (" + ambiguous + " ambiguous: a reset followed by traffic fits too; counted as a "
                                    + "glitch, the total may be low)"));
                }
                long resets = count(c, CounterEvent.RESET);
                if (resets > 0) {
                    parts.add(plural(resets, "reset", "resets") + " (motion around a reset is not counted)");
                }
                long wraps = count(c, CounterEvent.POSSIBLE_WRAP);
                if (wraps > 0) {
                    parts.add(plural(wraps, "possible 32-bit wrap", "possible 32-bit wraps")
                            + " (in doubt: the link could have carried 2^32 more; the smallest motion is counted, "
                            + "the total may be low)");
                }
                if (inDoubt.contains(c)) {
                    parts.add("in doubt (a reading below the one before it awaits the next; the low reading is "
                            + "left out)");
                }
                if (!parts.isEmpty()) {
                    out.add(c.file() + ": " + String.join(", ", parts));
                }
            }
            return out;
        }

        private static String plural(long n, String one, String many) {
            return String.format(Locale.ROOT, "%d %s", n, n == 1 ? one : many);
        }
    }

    private static int index(NicCounter c, CounterEvent e) {
        return e.ordinal() * COUNTERS.length + c.ordinal();
    }

    /**
     * Reads the counters between two clock readings and accumulates.
     *
     * @return the totals; counters whose reading dipped are named in {@link Snapshot#inDoubt()}
     * @throws IOException if the counters cannot be read (the interface is gone)
     */
    public Snapshot read() throws IOException {
        long before = clock.nanoTime();
        CounterSource.Raw raw = source.read();
        long after = clock.nanoTime();
        if (!started || raw.ifindex() != ifindex) {
            for (NicCounter c : COUNTERS) {
                tracks[c.ordinal()].rebase(raw.get(c), before, started);
            }
            started = true;
            ifindex = raw.ifindex();
        } else {
            // a bound holds over the span only when the speed was known at both of its ends
            long linkBps = lastLinkBps > 0 && raw.linkBitsPerSecond() > 0 ? Math.max(lastLinkBps, raw.linkBitsPerSecond()) : 0;
            for (NicCounter c : COUNTERS) {
                tracks[c.ordinal()].accept(raw.get(c), before, after, linkBps);
            }
        }
        lastLinkBps = raw.linkBitsPerSecond();
        return snapshot(after);
    }

    /**
     * Reads the counters, then reads again, at most {@value #SETTLE_READINGS} more times, while a
     * counter is in doubt, so that a dip in the last reading of a run is decided (a glitch, a wrap
     * or a reset) instead of left open. Use it for baselines and final readings.
     *
     * @param pause wait before each further reading (a glitch may last a little while); zero for none
     * @return the last snapshot; any counter still in doubt is named in it
     * @throws IOException if the counters cannot be read
     * @throws IllegalArgumentException if {@code pause} is negative
     */
    public Snapshot readSettled(Duration pause) throws IOException {
        if (pause.isNegative()) {
            throw new IllegalArgumentException("pause " + pause + " is out of range; allowed: >= 0");
        }
        Snapshot s = read();
        for (int i = 0; i < SETTLE_READINGS && !s.inDoubt().isEmpty(); i++) {
            if (!pause.isZero()) {
                try {
                    Thread.sleep(pause.toMillis(), pause.toNanosPart() % 1_000_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return s;
                }
            }
            s = read();
        }
        return s;
    }

    private Snapshot snapshot(long nanos) {
        long[] totals = new long[COUNTERS.length];
        long[] events = new long[EVENTS.length * COUNTERS.length];
        Set<NicCounter> doubt = EnumSet.noneOf(NicCounter.class);
        for (NicCounter c : COUNTERS) {
            CounterTrack t = tracks[c.ordinal()];
            totals[c.ordinal()] = t.total();
            for (CounterEvent e : EVENTS) {
                events[index(c, e)] = t.events(e);
            }
            if (t.inDoubt()) {
                doubt.add(c);
            }
        }
        return new Snapshot(interfaceName, nanos, totals, events, doubt);
    }

    /** @return the interface name */
    public String interfaceName() {
        return interfaceName;
    }
}
