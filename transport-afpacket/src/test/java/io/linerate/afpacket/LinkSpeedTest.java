package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Link speeds from a fake {@code /sys/class/net} and a fake driver lookup. */
class LinkSpeedTest {

    private static void iface(Path root, String name, String speed, boolean device) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        if (speed != null) {
            Files.writeString(dir.resolve("speed"), speed + "\n");
        }
        if (device) {
            Files.createDirectories(dir.resolve("device"));
        }
    }

    @Test
    void aNicWithADeviceHasItsSpeedInBitsPerSecond(@TempDir Path root) throws IOException {
        iface(root, "eth0", "25000", true);
        LinkSpeed s = LinkSpeed.read(root, "eth0", n -> Optional.of("ice"));
        // 25000 Mb/s × 10^6 = 25,000,000,000 bit/s
        assertThat(s.bitsPerSecond()).hasValue(25_000_000_000L);
        assertThat(s.noLineRate()).isEmpty();
        assertThat(s.describe()).isEqualTo("eth0 25000 Mb/s");
    }

    @Test
    void vethIsNoRealLinkWhateverItReports(@TempDir Path root) throws IOException {
        iface(root, "v0", "10000", false);
        LinkSpeed s = LinkSpeed.read(root, "v0", n -> Optional.of("veth"));
        assertThat(s.bitsPerSecond()).isEmpty();
        assertThat(s.describe()).isEqualTo("v0 is veth, which reports a fixed 10000 Mb/s and is no real link: "
                + "no percentage of line rate");
        // with a device entry too: the driver decides
        iface(root, "v1", "10000", true);
        assertThat(LinkSpeed.read(root, "v1", n -> Optional.of("veth")).bitsPerSecond()).isEmpty();
    }

    @Test
    void withoutADriverAnInterfaceWithoutADeviceIsVirtual(@TempDir Path root) throws IOException {
        iface(root, "v0", "10000", false);
        assertThat(LinkSpeed.read(root, "v0", n -> Optional.empty()).describe())
                .isEqualTo("v0 is a virtual interface (driver unknown, no device), whose 10000 Mb/s is no real link: "
                        + "no percentage of line rate");
    }

    @Test
    void anUnknownOrUnreadableSpeedGivesNoLineRate(@TempDir Path root) throws IOException {
        iface(root, "eth1", "-1", true);
        iface(root, "eth2", null, true);
        assertThat(LinkSpeed.read(root, "eth1", n -> Optional.of("e1000")).describe())
                .isEqualTo("eth1 reports no link speed (-1): no percentage of line rate");
        assertThat(LinkSpeed.read(root, "eth2", n -> Optional.of("e1000")).describe())
                .isEqualTo("eth2 reports no link speed: no percentage of line rate");
    }

    @Test
    void theSlowerLinkHoldsAndNoLineRateWins(@TempDir Path root) throws IOException {
        iface(root, "a", "10000", true);
        iface(root, "b", "1000", true);
        iface(root, "v", "10000", false);
        LinkSpeed a = LinkSpeed.read(root, "a", n -> Optional.of("ixgbe"));
        LinkSpeed b = LinkSpeed.read(root, "b", n -> Optional.of("igb"));
        LinkSpeed v = LinkSpeed.read(root, "v", n -> Optional.of("veth"));
        assertThat(LinkSpeed.slower(a, b)).isSameAs(b);
        assertThat(LinkSpeed.slower(b, a)).isSameAs(b);
        assertThat(LinkSpeed.slower(a, v)).isSameAs(v);
        assertThat(LinkSpeed.slower(v, a)).isSameAs(v);
    }
}
