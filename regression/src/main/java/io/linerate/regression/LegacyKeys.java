package io.linerate.regression;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a baseline saved before format version 3 under today's keys (docs/metrics.md, "One key per
 * quantity"). Up to version 2 one quantity had several keys: a stream's metrics had no test path
 * in JSON and JUnit, the agent's tests were {@code <marker>_bidir} and {@code <marker>_parallel},
 * each end's rate was {@code <marker>_mbps} whichever end it was, linerate's iperf clients wrote
 * {@code iperf3_<marker>[_reverse]_*} and {@code iperf2_<marker>_*}, and the gate's iperf3 reader
 * wrote {@code iperf3_<protocol>_*}, without the family.
 *
 * <p>An old key may stand for more than one of today's (an end's {@code _mbps} was the sender's
 * rate or the receiver's goodput, which is never read as the sender's rate; the reader's name had no
 * family): its candidates are listed, most
 * likely first, and an old series is renamed to the most likely one when the current run has it,
 * else to the only one the current run has. Otherwise it keeps its
 * old key, and the gate reports it missing, naming what the run produced instead.
 */
final class LegacyKeys {
    /** The first baseline format version whose keys are today's. */
    static final int KEYS_VERSION = 3;
    private static final String DIRECTION = "direction";
    private static final Pattern STREAM = Pattern.compile("((?:tcp|udp)[46](?:_nodelay|_frag)?)_(.+)");
    private static final Pattern IPERF = Pattern.compile("iperf([23])_((?:tcp|udp)[46])(_reverse)?_(.+)");
    private static final Pattern READER = Pattern.compile("iperf3_(tcp|udp)_(.+)");
    private static final int NAMED = 5;

    private LegacyKeys() {}

    /**
     * @param b a baseline, of any version
     * @param current the series of the run it is compared with
     * @param warnings where one warning naming the renamed series goes, when any was
     * @return {@code b} with its old keys renamed; {@code b} itself when it is of version 3 or later
     */
    static Baseline remap(Baseline b, Set<SeriesKey> current, List<Problem> warnings) {
        if (b.version() >= KEYS_VERSION) {
            return b;
        }
        List<Baseline.Series> out = new ArrayList<>();
        List<String> renamed = new ArrayList<>();
        Set<SeriesKey> taken = new java.util.HashSet<>();
        b.series().forEach(s -> taken.add(s.key()));
        for (Baseline.Series s : b.series()) {
            SeriesKey key = s.key();
            if (!current.contains(key)) {
                List<SeriesKey> candidates = candidates(key);
                // never onto a key the baseline holds already, or took for another old series
                List<SeriesKey> present = candidates.stream().filter(current::contains).filter(k -> !taken.contains(k)).toList();
                if (!present.isEmpty() && (present.size() == 1 || present.get(0).equals(candidates.get(0)))) {
                    renamed.add(key.display() + " -> " + present.get(0).display());
                    key = present.get(0);
                    taken.add(key);
                }
            }
            out.add(new Baseline.Series(key, s.unit(), s.runs(), s.policy()));
        }
        if (!renamed.isEmpty()) {
            int more = renamed.size() - NAMED;
            warnings.add(new Problem("baseline", 0, "", "", "the baseline is of format version " + b.version()
                    + ", saved before one quantity had one key; " + renamed.size() + " series read under today's keys: "
                    + String.join(", ", renamed.subList(0, Math.min(NAMED, renamed.size())))
                    + (more > 0 ? " and " + more + " more" : "") + ". Save it again to store today's keys"));
        }
        return new Baseline(b.version(), b.created(), b.environment(), out);
    }

    /** @return today's keys {@code old} may stand for, most likely first; empty when it is not an old key */
    static List<SeriesKey> candidates(SeriesKey old) {
        Set<SeriesKey> out = new LinkedHashSet<>();
        String test = old.test().replaceFirst("_(?:bidir|parallel)$", "");
        Matcher iperf = IPERF.matcher(old.name());
        Matcher reader = READER.matcher(old.name());
        Matcher stream = STREAM.matcher(old.name());
        if (iperf.matches()) {
            String marker = iperf.group(2);
            String direction = old.labels().getOrDefault(DIRECTION, iperf.group(3) == null ? "forward" : "reverse");
            String q = iperf.group(4);
            if (q.equals("mbps")) {
                // each end's own rate: linerate's end (local) sent forward and received reverse
                boolean sender = old.host().equals("local") == direction.equals("forward");
                out.add(key(marker, sender ? marker + "_sent_mbps" : marker + "_mbps", old.host(), old.labels(), direction));
            } else {
                quantity(out, marker, q, List.of(old.host()), List.of(direction), old.labels());
            }
        } else if (reader.matches()) {
            String direction = old.labels().getOrDefault(DIRECTION, "forward");
            for (String family : List.of("4", "6")) {
                String q = reader.group(2);
                String marker = reader.group(1) + family;
                // the client's file, which the gate asked for, counted a forward direction's receiver remote
                List<String> hosts = direction.equals("forward") ? List.of("remote", "local") : List.of("local", "remote");
                if (q.equals("mbps")) {
                    // the reader only ever read the receiver's goodput
                    for (String host : hosts) {
                        out.add(key(marker, marker + "_mbps", host, old.labels(), direction));
                    }
                } else {
                    quantity(out, marker, q, hosts, List.of(direction), old.labels());
                }
            }
        } else if (stream.matches() && (test.isEmpty() || test.equals(stream.group(1)))) {
            String marker = stream.group(1);
            out.add(new SeriesKey(marker, old.name(), old.host(), old.labels()));
            quantity(out, marker, stream.group(2), List.of(old.host()), directions(old.labels(), List.of("forward", "reverse")),
                    old.labels());
        }
        out.remove(old);
        return new ArrayList<>(out);
    }

    private static List<String> directions(Map<String, String> labels, List<String> fallback) {
        return labels.containsKey(DIRECTION) ? List.of(labels.get(DIRECTION)) : fallback;
    }

    /**
     * Adds today's keys of quantity {@code q} at the given hosts and directions. An old {@code _mbps}
     * maps to today's {@code _mbps} (goodput) only: in one JVM it was the receiver's goodput, and an
     * agent end's, which could be the sender's rate, is not told apart by its key; reading a sender's
     * rate as goodput would hide a goodput regression behind it.
     */
    private static void quantity(Set<SeriesKey> out, String marker, String q, List<String> hosts, List<String> directions,
                                 SortedMap<String, String> labels) {
        String name = marker + "_" + q;
        for (String host : hosts) {
            for (String direction : directions) {
                out.add(key(marker, name, host, labels, direction));
            }
            if (!q.equals("mbps") && !q.equals("cpu_us_per_kb")) {
                // a receiver's figure (loss, jitter) at the other host: linerate's own forward loss against an
                // iperf server (local) has no key of its own today, the server's (remote) is the receiver's
                for (String direction : directions) {
                    out.add(key(marker, name, host.equals("local") ? "remote" : "local", labels, direction));
                }
            }
        }
    }

    private static SeriesKey key(String marker, String name, String host, SortedMap<String, String> labels, String direction) {
        TreeMap<String, String> l = new TreeMap<>(labels);
        l.put(DIRECTION, direction);
        return new SeriesKey(marker, name, host, l);
    }
}
