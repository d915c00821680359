package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.Rates;
import java.io.IOException;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Process-local 64-bit totals of one interface's counters (DESIGN rule 2). Each {@link #read()}
 * reads the raw counters, then stamps the reading with the {@link Clock} right after, and adds
 * only forward motion to the totals:
 *
 * <ul>
 *   <li>a raw value that grew adds the growth;</li>
 *   <li>a 32-bit counter that wrapped (previous value in the upper half of the 32-bit range, new
 *       value smaller and below 2^32) adds the distance through 2^32: 4294967290 then 5 adds 11;</li>
 *   <li>any other backward step (driver reset, a transient low reading) adds nothing and the new
 *       value becomes the base;</li>
 *   <li>a changed ifindex (the interface was re-created) adds nothing and rebases every counter.</li>
 * </ul>
 *
 * Totals start at 0 with the first reading. Take baselines for every interface in one place before
 * traffic starts and compute rates with {@link Snapshot#minus}. Not thread-safe.
 */
public final class NicCounters {
    private static final long TWO_32 = 1L << 32;

    private final String interfaceName;
    private final CounterSource source;
    private final Clock clock;
    private final long[] last = new long[NicCounter.values().length];
    private final long[] total = new long[NicCounter.values().length];
    private int ifindex = -1;
    private boolean started;
    private long rebases;

    /**
     * @param interfaceName the interface, for messages
     * @param source the raw counters
     * @param clock stamps each reading right after it was read
     */
    public NicCounters(String interfaceName, CounterSource source, Clock clock) {
        this.interfaceName = Objects.requireNonNull(interfaceName, "interfaceName");
        this.source = Objects.requireNonNull(source, "source");
        this.clock = Objects.requireNonNull(clock, "clock");
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
     * @param rebases backward steps and re-creations seen so far
     */
    public record Snapshot(String interfaceName, long nanos, long[] totals, long rebases) {
        /** @return the accumulated total of {@code c} */
        public long get(NicCounter c) {
            return totals[c.ordinal()];
        }

        /**
         * @param earlier a snapshot of the same counters taken before this one
         * @return the change from {@code earlier} to this one
         */
        public Delta minus(Snapshot earlier) {
            long[] d = new long[totals.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = totals[i] - earlier.totals[i];
            }
            return new Delta(interfaceName, nanos - earlier.nanos, d, rebases - earlier.rebases);
        }
    }

    /**
     * The change between two snapshots.
     *
     * @param nanos time between the two readings, ns
     * @param counts change of each total
     * @param rebases backward steps seen in between (each one may hide motion)
     */
    public record Delta(String interfaceName, long nanos, long[] counts, long rebases) {
        /** @return the change of {@code c} */
        public long get(NicCounter c) {
            return counts[c.ordinal()];
        }

        /** @return {@code c} per second over the interval; empty for a zero-length interval */
        public OptionalDouble perSecond(NicCounter c) {
            return Rates.perSecond(get(c), nanos);
        }
    }

    /**
     * Reads the counters, stamps the reading and accumulates.
     *
     * @throws IOException if the counters cannot be read (the interface is gone)
     */
    public Snapshot read() throws IOException {
        CounterSource.Raw raw = source.read();
        long now = clock.nanoTime();
        if (!started || raw.ifindex() != ifindex) {
            if (started) {
                rebases++;
            }
            started = true;
            ifindex = raw.ifindex();
            System.arraycopy(raw.values(), 0, last, 0, last.length);
        } else {
            for (int i = 0; i < last.length; i++) {
                long prev = last[i];
                long cur = raw.values()[i];
                if (Long.compareUnsigned(cur, prev) >= 0) {
                    total[i] += cur - prev;
                } else if (prev >= TWO_32 / 2 && prev < TWO_32 && cur >= 0 && cur < prev) {
                    total[i] += TWO_32 - prev + cur;
                } else {
                    rebases++;
                }
                last[i] = cur;
            }
        }
        return new Snapshot(interfaceName, now, total.clone(), rebases);
    }

    /** @return the interface name */
    public String interfaceName() {
        return interfaceName;
    }
}
