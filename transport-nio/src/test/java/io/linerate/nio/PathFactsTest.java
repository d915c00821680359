package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathFactsTest {

    @Test
    void timestampsAreOnForAnyNonZeroSetting(@TempDir Path dir) throws IOException {
        // tcp(7): 0 off, 1 on with random offsets, 2 on without
        assertThat(PathFacts.tcpTimestamps(write(dir, "0\n"))).hasValue(false);
        assertThat(PathFacts.tcpTimestamps(write(dir, "1\n"))).hasValue(true);
        assertThat(PathFacts.tcpTimestamps(write(dir, "2\n"))).hasValue(true);
        assertThat(PathFacts.tcpTimestamps(write(dir, "on\n"))).isEmpty();
        assertThat(PathFacts.tcpTimestamps(dir.resolve("missing"))).isEmpty();
    }

    @Test
    void theLoopbackMssFollowsTheMtuInSysfsAndTheTimestampSysctl() throws IOException {
        Path sysfs = Path.of("/sys/class/net/lo/mtu");
        Assumptions.assumeTrue(Files.isReadable(sysfs) && Files.isReadable(PathFacts.TCP_TIMESTAMPS));
        // read here from sysfs, not through the interface ioctl PathFacts uses
        int mtu = Integer.parseInt(Files.readString(sysfs).strip());
        int options = Integer.parseInt(Files.readString(PathFacts.TCP_TIMESTAMPS).strip()) != 0 ? 12 : 0;
        // on a host loopback of MTU 65536 with timestamps: IPv6 65536 - 40 - 20 - 12 = 65464,
        // IPv4 min(65536, 65535) - 20 - 20 - 12 = 65483
        assertThat(PathFacts.loopbackTcpMss(AddressFamily.IPV6)).map(TcpMss::bytes).hasValue(mtu - 40 - 20 - options);
        assertThat(PathFacts.loopbackTcpMss(AddressFamily.IPV4)).map(TcpMss::bytes)
                .hasValue(Math.min(mtu, 65535) - 20 - 20 - options);
    }

    private static Path write(Path dir, String text) throws IOException {
        Path f = Files.createTempFile(dir, "tcp_timestamps", "");
        return Files.writeString(f, text);
    }
}
