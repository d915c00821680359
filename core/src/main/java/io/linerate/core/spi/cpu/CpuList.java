package io.linerate.core.spi.cpu;

import java.util.BitSet;
import java.util.Locale;

/**
 * The kernel's CPU list format (cpuset(7), "List format"; {@code Cpus_allowed_list} in
 * {@code /proc/PID/task/TID/status}, proc(5)): comma-separated CPU numbers and inclusive ranges,
 * such as {@code 0-3,8}.
 */
public final class CpuList {
    /** Highest CPU number accepted, as glibc's {@code CPU_SETSIZE} (1024) allows. */
    public static final int MAX_CPU = 1023;

    private CpuList() {}

    /**
     * @param cpus the CPUs, bit n for CPU n
     * @return the list, ranges for runs of two or more ({@code 0-1}), empty text for no CPU
     */
    public static String format(BitSet cpus) {
        StringBuilder b = new StringBuilder();
        int from = cpus.nextSetBit(0);
        while (from >= 0) {
            int to = cpus.nextClearBit(from) - 1;
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(from);
            if (to > from) {
                b.append('-').append(to);
            }
            from = cpus.nextSetBit(to + 1);
        }
        return b.toString();
    }

    /**
     * @param text a CPU list, such as {@code 0-3,8}; blanks around items are ignored
     * @return the CPUs, bit n for CPU n
     * @throws IllegalArgumentException naming the text and the allowed form when it is empty, not a
     *     list, has a range whose end is below its start, or a CPU above {@value #MAX_CPU}
     */
    public static BitSet parse(String text) {
        BitSet cpus = new BitSet();
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("CPU list '" + text + "' is empty; allowed: CPU numbers and ranges 0-"
                    + MAX_CPU + " such as 0-3,8");
        }
        for (String item : text.split(",", -1)) {
            String t = item.strip();
            int dash = t.indexOf('-');
            int from = number(text, dash < 0 ? t : t.substring(0, dash));
            int to = dash < 0 ? from : number(text, t.substring(dash + 1));
            if (to < from) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "CPU list '%s' has the range %d-%d, whose end is below its start", text, from, to));
            }
            cpus.set(from, to + 1);
        }
        return cpus;
    }

    private static int number(String text, String digits) {
        int n;
        try {
            n = Integer.parseInt(digits.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("CPU list '" + text + "' is not a list of CPU numbers and ranges; allowed: "
                    + "numbers 0-" + MAX_CPU + " and ranges such as 0-3,8", e);
        }
        if (n < 0 || n > MAX_CPU) {
            throw new IllegalArgumentException("CPU " + n + " in the list '" + text + "' is out of range; allowed: 0-" + MAX_CPU);
        }
        return n;
    }
}
