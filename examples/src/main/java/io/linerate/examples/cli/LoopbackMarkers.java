package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.Transports;
import io.linerate.core.spi.Transport;
import io.linerate.suite.LoopbackSuite;
import io.linerate.suite.LoopbackSuite.Marker;
import io.linerate.suite.LoopbackZeroLoss;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The loopback suite's markers as {@code linerate loopback} chose them, and the checks that tie
 * them to other options: {@code --markers} (neither empty nor repeated), {@code --transport}
 * (which of the markers it runs) and {@code --zero-loss} (which applies to udp markers only). Each
 * refusal is an {@link IllegalArgumentException} naming the value and what is allowed.
 */
final class LoopbackMarkers {
    private LoopbackMarkers() {}

    /**
     * @param given the {@code --markers} values, or {@code null} for all
     * @param families the {@code --family} chosen
     * @param familyText the {@code --family} text, for the message
     * @return the markers of {@code families}, in the order given
     * @throws IllegalArgumentException for an empty list, an unknown or repeated marker, or no
     *     marker of {@code families}
     */
    static List<Marker> select(List<String> given, List<AddressFamily> families, String familyText) {
        List<Marker> chosen;
        if (given == null) {
            chosen = List.of(Marker.values());
        } else {
            if (given.isEmpty() || given.stream().allMatch(String::isBlank)) {
                throw new IllegalArgumentException("--markers names no marker (its value is empty or only commas); allowed: "
                        + "one or more of " + labels(List.of(Marker.values())) + ", comma-separated");
            }
            chosen = given.stream().map(Marker::parse).toList();
            Set<Marker> seen = new LinkedHashSet<>();
            for (Marker m : chosen) {
                if (!seen.add(m)) {
                    throw new IllegalArgumentException("--markers names " + m.label() + " twice; allowed: each marker "
                            + "once (--repeat N runs each N times)");
                }
            }
        }
        List<Marker> out = chosen.stream().filter(m -> families.contains(m.family())).toList();
        if (out.isEmpty()) {
            throw new IllegalArgumentException("markers " + chosen.stream().map(Marker::label).toList()
                    + " have none of family " + familyText + "; allowed: markers ending in "
                    + (families.size() == 1 ? families.get(0).label() : "4 or 6"));
        }
        return out;
    }

    /**
     * @throws IllegalArgumentException when {@code zeroLoss} is set and no marker is udp: the search
     *     finds a UDP stream's zero-loss rate, and TCP loses nothing to search for
     */
    static void checkZeroLoss(boolean zeroLoss, List<Marker> markers) {
        if (zeroLoss && markers.stream().noneMatch(LoopbackZeroLoss::applies)) {
            throw new IllegalArgumentException("--zero-loss searches the zero-loss rate of udp markers, and the markers "
                    + labels(markers) + " have none (TCP retransmits what it loses); allowed: --zero-loss with a udp "
                    + "marker in --markers, such as " + markers.stream().map(Marker::label).collect(Collectors.joining(","))
                    + ",udp" + markers.get(0).family().label() + ", or no --zero-loss");
        }
    }

    /**
     * The transport for every marker of {@code config}: the first that runs them when {@code name}
     * is {@code null}, else the named one.
     *
     * @throws IllegalArgumentException when the named transport is unknown or unavailable, or cannot
     *     run one of the markers: then naming the markers of {@code families} it runs and the
     *     {@code --markers} that picks them
     */
    static Transport transport(String name, LoopbackSuite.Config config, List<AddressFamily> families) {
        List<Marker> markers = config.markers();
        if (name == null) {
            return Transports.select(null, config.spec(markers.get(0)));
        }
        Transport first = null;
        for (Marker m : markers) {
            try {
                Transport t = Transports.select(name, config.spec(m));
                first = first == null ? t : first;
            } catch (IllegalArgumentException e) {
                throw refused(name, e, runnable(name, config, families));
            }
        }
        return first;
    }

    private static IllegalArgumentException refused(String name, IllegalArgumentException e, List<Marker> runnable) {
        if (runnable.isEmpty()) {
            return e;
        }
        return new IllegalArgumentException(e.getMessage() + "; of the suite's markers, transport '" + name + "' runs "
                + labels(runnable) + ": pick them with --markers " + runnable.stream().map(Marker::label)
                .collect(Collectors.joining(",")), e);
    }

    private static List<Marker> runnable(String name, LoopbackSuite.Config config, List<AddressFamily> families) {
        List<Marker> out = new ArrayList<>();
        for (Marker m : Marker.values()) {
            if (!families.contains(m.family())) {
                continue;
            }
            try {
                Transports.select(name, config.spec(m));
                out.add(m);
            } catch (IllegalArgumentException e) {
                // not one it runs
            }
        }
        return out;
    }

    private static String labels(List<Marker> markers) {
        return markers.stream().map(Marker::label).collect(Collectors.joining(", "));
    }
}
