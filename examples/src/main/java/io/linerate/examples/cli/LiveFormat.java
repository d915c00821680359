package io.linerate.examples.cli;

import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.ProcessCounters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/** Text of live counters: the table {@code linerate stat} prints and the one-line progress report. */
final class LiveFormat {
    /** The table's header line. */
    static final String HEADER = String.format(Locale.ROOT, "%-8s %4s %8s %15s %15s %12s %12s %10s %11s  %s",
            "PID", "ID", "UP_S", "BYTES_SENT", "BYTES_RECV", "MSGS_SENT", "MSGS_RECV", "LOST", "MBIT/S", "WHAT");

    private LiveFormat() {}

    /**
     * @param processes the files read
     * @param nowMillis the wall clock when they were read, ms since the epoch
     * @return one row per transfer or progress report, and one for a process that runs none; no header
     */
    static List<String> rows(List<ProcessCounters> processes, long nowMillis) {
        List<String> out = new ArrayList<>();
        for (ProcessCounters p : processes) {
            if (p.groups().isEmpty()) {
                out.add(String.format(Locale.ROOT, "%-8d %4s %8.1f %15s %15s %12s %12s %10s %11s  idle, last update %.1f s ago",
                        p.pid(), "-", seconds(nowMillis - p.createdMillis()), "-", "-", "-", "-", "-", "-",
                        seconds(nowMillis - p.heartbeatMillis())));
            }
            for (CounterGroup g : p.groups()) {
                out.add(row(p.pid(), g, nowMillis));
            }
        }
        return out;
    }

    private static String row(long pid, CounterGroup g, long nowMillis) {
        double up = seconds(nowMillis - g.startMillis());
        if (g.kind() == CounterGroup.Kind.PROGRESS) {
            return String.format(Locale.ROOT, "%-8d %4d %8.1f %15s %15s %12s %12s %10s %11s  %s", pid, g.id(), up,
                    "-", "-", "-", "-", "-", "-", progress(g));
        }
        return String.format(Locale.ROOT, "%-8d %4d %8.1f %15s %15s %12s %12s %10s %11s  %s", pid, g.id(), up,
                number(g.value(CounterType.BYTES_SENT)), number(g.value(CounterType.BYTES_RECEIVED)),
                number(g.value(CounterType.MESSAGES_SENT)), number(g.value(CounterType.MESSAGES_RECEIVED)),
                number(g.value(CounterType.LOST)), mbits(g.value(CounterType.RATE)), g.label());
    }

    /**
     * @param p this process's counters
     * @param width the most characters the line may have
     * @return {@code loopback suite 3/16 | stream udp6 1220 B 2.000 s: 4.2 s, 2345.678 Mbit/s, 1.234 GB received},
     *     the progress reports and the latest transfer, cut to {@code width}; empty when nothing runs
     */
    static String progressLine(ProcessCounters p, long nowMillis, int width) {
        List<String> parts = new ArrayList<>();
        for (CounterGroup g : p.groups()) {
            if (g.kind() == CounterGroup.Kind.PROGRESS) {
                parts.add(progress(g));
            }
        }
        String transfer = latestTransfer(p, nowMillis);
        if (!transfer.isEmpty()) {
            parts.add(transfer);
        }
        return cut(String.join(" | ", parts), width);
    }

    /**
     * @return {@code stream udp6 1220 B 2.000 s: 4.2 s, 2345.678 Mbit/s, 1.234 GB received}: the transfer
     *     registered last, how long it has run, its latest interval's rate and the bytes received; empty
     *     when no transfer runs
     */
    static String latestTransfer(ProcessCounters p, long nowMillis) {
        return latest(p, CounterGroup.Kind.TRANSFER).map(g -> {
            OptionalLong rate = g.value(CounterType.RATE);
            return String.format(Locale.ROOT, "%s: %.1f s,%s %s received", g.label(), seconds(nowMillis - g.startMillis()),
                    rate.isPresent() && rate.getAsLong() >= 0 ? " " + mbits(rate) + " Mbit/s," : "",
                    bytes(g.value(CounterType.BYTES_RECEIVED).orElse(0)));
        }).orElse("");
    }

    /** @return the group of {@code kind} registered last (the highest id), if any */
    static Optional<CounterGroup> latest(ProcessCounters p, CounterGroup.Kind kind) {
        return p.groups().stream().filter(g -> g.kind() == kind).max(Comparator.comparingLong(CounterGroup::id));
    }

    /** @return {@code line}, cut to {@code width} characters with {@code ...} at the end when longer */
    static String cut(String line, int width) {
        return line.length() > width ? line.substring(0, Math.max(0, width - 3)) + "..." : line;
    }

    private static String progress(CounterGroup g) {
        return g.label() + " " + g.value(CounterType.DONE).orElse(0) + "/" + g.value(CounterType.TOTAL).orElse(0);
    }

    private static String number(OptionalLong v) {
        return v.isPresent() ? Long.toString(v.getAsLong()) : "-";
    }

    /** @return Mbit/s (10^6 bit/s) with three decimals, or {@code -} when there is no rate (yet) */
    static String mbits(OptionalLong bitsPerSecond) {
        return bitsPerSecond.isEmpty() || bitsPerSecond.getAsLong() < 0 ? "-"
                : String.format(Locale.ROOT, "%.3f", bitsPerSecond.getAsLong() / 1e6);
    }

    /** @return decimal bytes: {@code 999 B}, {@code 1.500 kB}, {@code 2.250 GB} */
    static String bytes(long n) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
        double v = n;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return u == 0 ? n + " B" : String.format(Locale.ROOT, "%.3f %s", v, units[u]);
    }

    /** @return {@code millis} in seconds, 0 for a negative span */
    static double seconds(long millis) {
        return Math.max(0, millis) / 1000.0;
    }
}
