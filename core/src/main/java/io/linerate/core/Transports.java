package io.linerate.core;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds {@link Transport} implementations on the class path with {@link ServiceLoader}. */
public final class Transports {
    private Transports() {}

    /** @return every transport found, in class-path order */
    public static List<Transport> all() {
        List<Transport> out = new ArrayList<>();
        ServiceLoader.load(Transport.class, Transports.class.getClassLoader()).forEach(out::add);
        return out;
    }

    /**
     * @param name a transport name such as {@code nio}
     * @return the transport
     * @throws IllegalArgumentException naming the value and the transports that are present
     */
    public static Transport byName(String name) {
        List<Transport> all = all();
        for (Transport t : all) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no transport named '" + name + "'; available: "
                + (all.isEmpty() ? "none (add a transport module such as linerate-transport-nio)"
                        : String.join(", ", all.stream().map(Transport::name).toList())));
    }

    /**
     * @param spec a validated spec
     * @return the first transport that supports it
     * @throws IllegalArgumentException listing each transport's reason when none does
     */
    public static Transport forSpec(TransferSpec spec) {
        List<String> reasons = new ArrayList<>();
        for (Transport t : all()) {
            var reason = t.unsupportedReason(spec);
            if (reason.isEmpty()) {
                return t;
            }
            reasons.add(t.name() + ": " + reason.get());
        }
        throw new IllegalArgumentException("no transport supports " + spec + "; "
                + (reasons.isEmpty() ? "no transport is on the class path" : String.join("; ", reasons)));
    }
}
