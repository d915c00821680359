package io.linerate.afpacket;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The speed of an interface's link, when it has a real one: what a percentage of line rate is
 * taken of. Read from {@code /sys/class/net/IF/speed} (Mb/s; Documentation/ABI/testing/sysfs-class-net),
 * with the driver from ETHTOOL_GDRVINFO. A veth pair reports a fixed 10000 Mb/s and is no link at
 * all; an interface without a {@code device} entry is virtual; neither gets a line rate, and
 * {@link #noLineRate()} says so instead.
 *
 * @param interfaceName the interface
 * @param bitsPerSecond the link's speed in bit/s (decimal: Mb/s × 10^6), present only for a real link
 * @param noLineRate why there is no line rate (veth, a virtual interface, no speed reported);
 *     present exactly when {@code bitsPerSecond} is empty
 */
public record LinkSpeed(String interfaceName, OptionalLong bitsPerSecond, Optional<String> noLineRate) {
    private static final Path SYS_CLASS_NET = Path.of("/sys/class/net");

    /** @throws IllegalArgumentException unless exactly one of the speed and the reason is present */
    public LinkSpeed {
        Objects.requireNonNull(interfaceName, "interfaceName");
        if (bitsPerSecond.isPresent() == noLineRate.isPresent()) {
            throw new IllegalArgumentException("a link speed has either a speed or a reason for none; got " + bitsPerSecond
                    + " and " + noLineRate);
        }
    }

    /**
     * @param ifname the interface
     * @return its link speed read from this host's sysfs and SIOCETHTOOL; a driver that cannot be
     *     read leaves the decision to the {@code device} entry
     */
    public static LinkSpeed of(String ifname) {
        return read(SYS_CLASS_NET, ifname, LinkSpeed::driverOf);
    }

    /**
     * @param sysClassNet where {@code IF/speed} and {@code IF/device} are looked up
     * @param ifname the interface
     * @param driver the interface's driver name, or empty when it cannot be read
     * @return the link speed
     */
    static LinkSpeed read(Path sysClassNet, String ifname, Function<String, Optional<String>> driver) {
        Path dir = sysClassNet.resolve(ifname);
        long mbps;
        try {
            mbps = Long.parseLong(Files.readString(dir.resolve("speed"), StandardCharsets.US_ASCII).strip());
        } catch (IOException | NumberFormatException e) {
            // a down link's speed reads as EINVAL; a missing file is an interface without ethtool settings
            return none(ifname, ifname + " reports no link speed: no percentage of line rate");
        }
        if (mbps <= 0) {
            return none(ifname, ifname + " reports no link speed (" + mbps + "): no percentage of line rate");
        }
        Optional<String> drv = driver.apply(ifname);
        if (drv.isPresent() && drv.get().equals("veth")) {
            return none(ifname, String.format(Locale.ROOT, "%s is veth, which reports a fixed %d Mb/s and is no real link: "
                    + "no percentage of line rate", ifname, mbps));
        }
        if (!Files.exists(dir.resolve("device"))) {
            return none(ifname, String.format(Locale.ROOT, "%s is a virtual interface (driver %s, no device), whose %d Mb/s "
                    + "is no real link: no percentage of line rate", ifname, drv.orElse("unknown"), mbps));
        }
        return new LinkSpeed(ifname, OptionalLong.of(mbps * 1_000_000L), Optional.empty());
    }

    /**
     * @return the slower of two links, the one a frame crosses both of is held to; the first
     *     without a line rate (tx before rx) when either has none
     */
    public static LinkSpeed slower(LinkSpeed tx, LinkSpeed rx) {
        if (tx.bitsPerSecond().isEmpty()) {
            return tx;
        }
        if (rx.bitsPerSecond().isEmpty()) {
            return rx;
        }
        return rx.bitsPerSecond().getAsLong() < tx.bitsPerSecond().getAsLong() ? rx : tx;
    }

    /** @return {@code eth0 10000 Mb/s}, or the reason there is no line rate */
    public String describe() {
        return bitsPerSecond.isPresent()
                ? String.format(Locale.ROOT, "%s %d Mb/s", interfaceName, bitsPerSecond.getAsLong() / 1_000_000L)
                : noLineRate.orElseThrow();
    }

    private static LinkSpeed none(String ifname, String why) {
        return new LinkSpeed(ifname, OptionalLong.empty(), Optional.of(why));
    }

    private static Optional<String> driverOf(String ifname) {
        try {
            return Optional.of(new Ethtool(ifname, EthtoolIoctl.system()).driver());
        } catch (AfPacketException | RuntimeException | UnsatisfiedLinkError e) {
            return Optional.empty();
        }
    }
}
