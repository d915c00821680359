package io.linerate.core;

import java.util.OptionalDouble;

/** Rate arithmetic shared by every output. Rates are decimal: 1 Mbit/s = 10^6 bit/s. */
public final class Rates {
    private Rates() {}

    /**
     * @param bytes bytes counted in the interval, at least 0
     * @param nanos length of the interval in ns, from two clock readings
     * @return bit/s, or empty when the interval has no length (DESIGN rule 8: no NaN, no infinity)
     */
    public static OptionalDouble bitsPerSecond(long bytes, long nanos) {
        if (nanos <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(bytes * 8.0 * 1e9 / nanos);
    }

    /**
     * @param count events counted in the interval
     * @param nanos length of the interval in ns
     * @return events per second, or empty when the interval has no length
     */
    public static OptionalDouble perSecond(long count, long nanos) {
        if (nanos <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(count * 1e9 / nanos);
    }

    /** @return {@code bitsPerSecond} in Mbit/s (10^6 bit/s) */
    public static double toMbits(double bitsPerSecond) {
        return bitsPerSecond / 1e6;
    }
}
