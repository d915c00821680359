package io.linerate.regression;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Identity of a series of metric samples (docs/metrics.md section 2): test, name, host and labels.
 * Values of different hosts are never compared.
 *
 * @param test the KTAP test the metric belongs to; empty when none
 * @param name metric id, such as {@code udp4_mbps}
 * @param host {@code local}, {@code remote} or a host name
 * @param labels extra dimensions, sorted by key; never null
 */
public record SeriesKey(String test, String name, String host, SortedMap<String, String> labels)
        implements Comparable<SeriesKey> {

    /** @throws NullPointerException when name or host is null */
    public SeriesKey {
        test = test == null ? "" : test;
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels == null ? Map.of() : labels));
    }

    /** @return a key without test and labels */
    public static SeriesKey of(String name, String host) {
        return new SeriesKey("", name, host, new TreeMap<>());
    }

    /**
     * @return {@code [test/]name[{k=v,...}]@host}, the name used in reports, such as
     *     {@code udp4_mbps@local}
     */
    public String display() {
        StringBuilder sb = new StringBuilder();
        if (!test.isEmpty()) {
            sb.append(test).append('/');
        }
        sb.append(name);
        if (!labels.isEmpty()) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, String> e : labels.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                sb.append(e.getKey()).append('=').append(e.getValue());
            }
            sb.append('}');
        }
        return sb.append('@').append(host).toString();
    }

    @Override
    public int compareTo(SeriesKey o) {
        return display().compareTo(o.display());
    }
}
