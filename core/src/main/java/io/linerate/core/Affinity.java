package io.linerate.core;

import io.linerate.core.spi.cpu.CpuList;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The CPUs a measurement's two ends run on, as sfnt-pingpong's {@code --affinity 'C;S'} and
 * iperf3's {@code -A n,m}: the client's CPU and the server's, each pinned for the run
 * ({@code sched_setaffinity(2)}, through the native layer) and read back from the thread's CPU set.
 * In a ping-pong the server is the echo end; in a stream in one JVM the client is the sending end
 * and the server the receiving end ({@link TransferSpec#affinity()}).
 *
 * @param clientCpu the client thread's CPU, 0..{@value CpuList#MAX_CPU}; empty to leave it unpinned
 * @param serverCpu the echo thread's CPU, 0..{@value CpuList#MAX_CPU}; empty to leave it unpinned
 */
public record Affinity(OptionalInt clientCpu, OptionalInt serverCpu) {
    /** Neither end pinned: the default. */
    public static final Affinity NONE = new Affinity(OptionalInt.empty(), OptionalInt.empty());
    /** The word for an end left unpinned, in {@link #parse} and {@link #label}. */
    public static final String ANY = "any";

    /** @throws IllegalArgumentException naming a CPU out of 0..{@value CpuList#MAX_CPU} */
    public Affinity {
        check("client", clientCpu);
        check("server", serverCpu);
    }

    private static void check(String end, OptionalInt cpu) {
        if (cpu.isPresent() && (cpu.getAsInt() < 0 || cpu.getAsInt() > CpuList.MAX_CPU)) {
            throw new IllegalArgumentException("the " + end + "'s CPU " + cpu.getAsInt() + " is out of range; allowed: 0-"
                    + CpuList.MAX_CPU + " or " + ANY);
        }
    }

    /**
     * @param text {@code C;S}: the client's CPU and the server's, each a number or {@value #ANY};
     *     {@code C,S} too, as iperf3's {@code -A} writes it (and the shell leaves it whole unquoted)
     * @return the affinity
     * @throws IllegalArgumentException naming the text and the allowed form
     */
    public static Affinity parse(String text) {
        String[] parts = text == null ? new String[0] : text.split("[;,]", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "affinity '%s' is not C;S; allowed: the client's "
                    + "CPU and the server's, each 0-%d or %s, such as 0;1 or 0,1", text, CpuList.MAX_CPU, ANY));
        }
        return new Affinity(cpu(text, parts[0]), cpu(text, parts[1]));
    }

    private static OptionalInt cpu(String text, String part) {
        String p = part.strip();
        if (p.equalsIgnoreCase(ANY)) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(p));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "affinity '%s' has '%s', which is not a CPU; "
                    + "allowed: 0-%d or %s on each side of ';' or ','", text, p, CpuList.MAX_CPU, ANY), e);
        }
    }

    /** @return whether either end is pinned */
    public boolean pins() {
        return clientCpu.isPresent() || serverCpu.isPresent();
    }

    /** @return {@code C;S} as {@link #parse} reads it, such as {@code 0;any} */
    public String label() {
        return text(clientCpu) + ";" + text(serverCpu);
    }

    private static String text(OptionalInt cpu) {
        return cpu.isPresent() ? Integer.toString(cpu.getAsInt()) : ANY;
    }
}
