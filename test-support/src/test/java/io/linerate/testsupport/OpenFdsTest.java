package io.linerate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** A TCP socket left open shows in the snapshot; a Unix-domain socket does not. */
@EnabledOnOs(value = OS.LINUX, disabledReason = "OpenFds reads /proc, which only Linux has")
class OpenFdsTest {
    @Test
    void anOpenTcpSocketShowsAndAUnixDomainSocketDoesNot() throws Exception {
        Set<String> before = OpenFds.snapshot();
        try (SocketChannel tcp = SocketChannel.open(StandardProtocolFamily.INET);
                SocketChannel unix = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            Set<String> added = new HashSet<>(OpenFds.snapshot());
            added.removeAll(before);
            assertThat(added).as("descriptors opened since the first snapshot").hasSize(1)
                    .allSatisfy(fd -> assertThat(fd).contains("socket:["));
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }
}
