package io.linerate.peers.agent.internal.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the agent's clock compares with this host's. {@link System#nanoTime()} reads Linux's
 * CLOCK_MONOTONIC; two processes read the same one when they run on the same boot of the same
 * kernel (the same {@code /proc/sys/kernel/random/boot_id}, which every network namespace of the
 * host shares) with the same time-namespace offset of that clock ({@code /proc/self/timens_offsets}).
 * Then the two ends' readings are comparable ({@link #SAME_HOST}); otherwise nothing says how far
 * apart they are ({@link #UNSYNCHRONISED}), and no one-way delay may be derived from them.
 */
public final class HostClock {
    /** Both ends read the same monotonic clock: same kernel boot, same time-namespace offset. */
    public static final String SAME_HOST = "same host";
    /** The two clocks were not compared. */
    public static final String UNSYNCHRONISED = "unsynchronised";

    private HostClock() {}

    /** @return this process's clock identity: the boot id and the monotonic clock's namespace offset; empty when unreadable */
    public static Optional<String> identity() {
        try {
            String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).trim();
            String offset = "0 0";
            Path timens = Path.of("/proc/self/timens_offsets");
            if (Files.isReadable(timens)) {
                for (String line : Files.readAllLines(timens, StandardCharsets.US_ASCII)) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length == 3 && f[0].equals("monotonic")) {
                        offset = f[1] + " " + f[2];
                    }
                }
            }
            return boot.isEmpty() ? Optional.empty() : Optional.of(boot + " monotonic " + offset);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** @return {@link #SAME_HOST} when both identities are known and equal, else {@link #UNSYNCHRONISED} */
    public static String compare(Optional<String> here, Optional<String> agent) {
        return here.isPresent() && here.equals(agent) ? SAME_HOST : UNSYNCHRONISED;
    }
}
