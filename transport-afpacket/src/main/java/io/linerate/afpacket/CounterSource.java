package io.linerate.afpacket;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where raw interface counters come from: {@code /sys/class/net/IF/statistics} in production, a
 * fake in tests. Raw values are not monotonic (they wrap, reset, and start again when an interface
 * is re-created); {@link NicCounters} makes totals out of them.
 */
@FunctionalInterface
public interface CounterSource {

    /**
     * One raw reading.
     *
     * @param ifindex the interface index, which changes when the interface is re-created
     * @param values raw values indexed by {@link NicCounter#ordinal()}, unsigned 64-bit
     * @param linkBitsPerSecond the link's speed in bit/s when known, 0 when not (a virtual
     *     interface, a link that is down); it bounds what the counters can move between readings
     */
    record Raw(int ifindex, long[] values, long linkBitsPerSecond) {
        /** @throws IllegalArgumentException for a negative speed */
        public Raw {
            if (linkBitsPerSecond < 0) {
                throw new IllegalArgumentException("link speed " + linkBitsPerSecond + " bit/s is out of range; "
                        + "allowed: >= 0 (0 = unknown)");
            }
        }

        /** A reading of a link whose speed is unknown. */
        public Raw(int ifindex, long[] values) {
            this(ifindex, values, 0);
        }

        /** @return the raw value of {@code c} */
        public long get(NicCounter c) {
            return values[c.ordinal()];
        }
    }

    /**
     * @return the current raw values
     * @throws IOException if they cannot be read (the interface is gone)
     */
    Raw read() throws IOException;

    /** @return the counters of {@code interfaceName} under {@code /sys/class/net} */
    static CounterSource sysfs(String interfaceName) {
        return sysfs(Path.of("/sys/class/net"), interfaceName);
    }

    /**
     * @param root the directory holding one directory per interface
     * @return counters read from {@code root/IF/ifindex} and {@code root/IF/statistics/*}; the link
     *     speed from {@code root/IF/speed} (Mbit/s) for an interface backed by a device (one with a
     *     {@code device} entry), else unknown: a virtual interface's speed (veth says 10000) bounds
     *     nothing
     */
    static CounterSource sysfs(Path root, String interfaceName) {
        Path dir = root.resolve(interfaceName);
        return () -> {
            try {
                int ifindex = Integer.parseInt(Files.readString(dir.resolve("ifindex"), StandardCharsets.US_ASCII).strip());
                long[] v = new long[NicCounter.values().length];
                for (NicCounter c : NicCounter.values()) {
                    v[c.ordinal()] = Long.parseUnsignedLong(
                            Files.readString(dir.resolve("statistics").resolve(c.file()), StandardCharsets.US_ASCII).strip());
                }
                return new Raw(ifindex, v, linkSpeed(dir));
            } catch (NoSuchFileException e) {
                throw new IOException("interface " + interfaceName + " does not exist (no " + e.getFile() + ")", e);
            } catch (NumberFormatException e) {
                throw new IOException("interface " + interfaceName + " has an unreadable counter: " + e.getMessage(), e);
            }
        };
    }

    /**
     * @param dir an interface's directory under {@code /sys/class/net}
     * @return its link speed in bit/s, or 0 when unknown: no device behind it, no {@code speed}
     *     file, a read refused (the kernel answers EINVAL for a link that is down) or a value of
     *     -1 or 0
     */
    private static long linkSpeed(Path dir) {
        if (!Files.exists(dir.resolve("device"))) {
            return 0;
        }
        try {
            long mbps = Long.parseLong(Files.readString(dir.resolve("speed"), StandardCharsets.US_ASCII).strip());
            return mbps > 0 && mbps < Long.MAX_VALUE / 1_000_000L ? mbps * 1_000_000L : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
