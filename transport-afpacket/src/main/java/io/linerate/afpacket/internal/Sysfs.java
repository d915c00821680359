package io.linerate.afpacket.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** Facts about an interface from {@code /sys/class/net/IF} (Documentation/ABI/testing/sysfs-class-net). */
public final class Sysfs {
    private static final Path ROOT = Path.of("/sys/class/net");
    /** IFF_UP, {@code <linux/if.h>}. */
    public static final int IFF_UP = 0x1;

    private Sysfs() {}

    /** @return whether the interface exists */
    public static boolean exists(String ifname) {
        return Files.isDirectory(ROOT.resolve(ifname));
    }

    /** @return the MTU in bytes */
    public static int mtu(String ifname) throws IOException {
        return Integer.parseInt(read(ifname, "mtu"));
    }

    /** @return the interface flags ({@code IFF_*}) */
    public static int flags(String ifname) throws IOException {
        return Integer.decode(read(ifname, "flags"));
    }

    /** @return the operational state, such as {@code up}, {@code down}, {@code unknown} */
    public static String operstate(String ifname) throws IOException {
        return read(ifname, "operstate").toLowerCase(Locale.ROOT);
    }

    /** @return the hardware address as 6 bytes, or empty if it is not an Ethernet address */
    public static Optional<byte[]> address(String ifname) throws IOException {
        String a = read(ifname, "address");
        String[] parts = a.split(":");
        if (parts.length != 6) {
            return Optional.empty();
        }
        byte[] mac = new byte[6];
        for (int i = 0; i < 6; i++) {
            mac[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return Optional.of(mac);
    }

    private static String read(String ifname, String file) throws IOException {
        return Files.readString(ROOT.resolve(ifname).resolve(file), StandardCharsets.US_ASCII).strip();
    }
}
