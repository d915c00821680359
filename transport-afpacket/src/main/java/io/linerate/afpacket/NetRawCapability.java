package io.linerate.afpacket;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether this process holds CAP_NET_RAW, which {@code socket(AF_PACKET, SOCK_RAW)} needs, read
 * from the effective capability set in {@code /proc/self/status} ({@code CapEff:}, 64 bits in
 * hex, proc(5)) without opening a socket. CAP_NET_RAW is capability 13
 * ({@code <linux/capability.h>}), so it is held when bit 13 (mask {@code 0x2000}) is set. Root
 * holds it only as long as it is in that set: a container or a bounding set may drop it.
 */
final class NetRawCapability {
    /** CAP_NET_RAW's number in {@code <linux/capability.h>}. */
    static final int CAP_NET_RAW = 13;
    /** Where the process's own capability sets are. */
    static final Path STATUS = Path.of("/proc/self/status");

    private NetRawCapability() {}

    /**
     * @param statusLines the lines of {@code /proc/self/status}
     * @return why CAP_NET_RAW is not held, naming the set read and the effective user; empty when
     *     it is held, or when the lines have no readable {@code CapEff} (then opening the socket
     *     tells)
     */
    static Optional<String> missing(List<String> statusLines) {
        OptionalLong capEff = capEff(statusLines);
        if (capEff.isEmpty() || (capEff.getAsLong() >>> CAP_NET_RAW & 1) == 1) {
            return Optional.empty();
        }
        String set = String.format(Locale.ROOT, "%016x", capEff.getAsLong());
        OptionalLong euid = effectiveUid(statusLines);
        String who = euid.isPresent() && euid.getAsLong() == 0
                ? "the process runs as root (uid 0), but its effective set lacks it (a container or a capability bounding set dropped it)"
                : "the process runs as uid " + (euid.isPresent() ? Long.toString(euid.getAsLong()) : "unknown") + " without it";
        return Optional.of("no CAP_NET_RAW: the effective capability set (CapEff " + set + " in " + STATUS
                + ") has bit " + CAP_NET_RAW + " clear; " + who
                + "; run as root with CAP_NET_RAW, or grant it (setcap cap_net_raw+ep on the java binary)");
    }

    /** @return the lines of {@link #STATUS}, or none when it cannot be read (not Linux, no /proc) */
    static List<String> readStatus() {
        try {
            return Files.readAllLines(STATUS, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** @return the {@code CapEff:} value, empty when absent or not 1..16 hex digits */
    static OptionalLong capEff(List<String> lines) {
        String v = field(lines, "CapEff:");
        if (v == null || v.isEmpty() || v.length() > 16 || !v.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseUnsignedLong(v, 16));
    }

    /** The second of {@code Uid:}'s real, effective, saved and file-system uids. */
    private static OptionalLong effectiveUid(List<String> lines) {
        String v = field(lines, "Uid:");
        if (v == null) {
            return OptionalLong.empty();
        }
        String[] ids = v.split("\\s+");
        if (ids.length < 2 || !ids[1].matches("[0-9]{1,10}")) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(ids[1]));
    }

    private static String field(List<String> lines, String key) {
        for (String l : lines) {
            if (l.startsWith(key)) {
                return l.substring(key.length()).strip();
            }
        }
        return null;
    }
}
