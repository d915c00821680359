package io.linerate.core;

import java.util.Locale;
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

    private static final String[] UNITS = {"bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec"};

    /**
     * A rate for people, in the unit iperf3's adaptive format ({@code -f a}, units.c) picks: the
     * largest of bits/sec, Kbits/sec, Mbits/sec and Gbits/sec (decimal, 10^3 apart) that the rate
     * reaches, so that a low rate is not shown as 0.00 Mbits/sec; two decimals, as linerate's
     * interval lines. A rate of 0 is {@code 0.00 bits/sec}.
     *
     * @param bitsPerSecond bit/s, finite
     * @return such as {@code 10.00 Kbits/sec}, {@code 12.71 Mbits/sec}, {@code 16.35 Gbits/sec}
     */
    public static String text(double bitsPerSecond) {
        double v = bitsPerSecond;
        int unit = 0;
        while (Math.abs(v) >= 1000 && unit < UNITS.length - 1) {
            v /= 1000;
            unit++;
        }
        String s = String.format(Locale.ROOT, "%.2f", v);
        if (s.startsWith("1000.") && unit < UNITS.length - 1) {
            // 999.996 Kbits/sec rounds to 1000.00: show it as the next unit, as the rate it is
            s = String.format(Locale.ROOT, "%.2f", v / 1000);
            unit++;
        }
        return s + " " + UNITS[unit];
    }

    /** @return {@link #text(double)}, or {@code n/a Mbits/sec} for an interval without length */
    public static String text(OptionalDouble bitsPerSecond) {
        return bitsPerSecond.isPresent() ? text(bitsPerSecond.getAsDouble()) : "n/a Mbits/sec";
    }
}
