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
     */
    record Raw(int ifindex, long[] values) {
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
     * @return counters read from {@code root/IF/ifindex} and {@code root/IF/statistics/*}
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
                return new Raw(ifindex, v);
            } catch (NoSuchFileException e) {
                throw new IOException("interface " + interfaceName + " does not exist (no " + e.getFile() + ")", e);
            } catch (NumberFormatException e) {
                throw new IOException("interface " + interfaceName + " has an unreadable counter: " + e.getMessage(), e);
            }
        };
    }
}
