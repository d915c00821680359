package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.PortUnreachableException;
import org.junit.jupiter.api.Test;

class FailuresTest {
    @Test
    void aMessageIsKeptAndNoneIsNeverNull() {
        assertThat(Failures.describe(new IOException("Broken pipe"))).isEqualTo("Broken pipe");
        assertThat(Failures.describe(new IllegalStateException(new IOException("reset")))).isEqualTo("java.io.IOException: reset");
        assertThat(Failures.describe(new NullPointerException())).isEqualTo("java.lang.NullPointerException");
        assertThat(Failures.describe(null)).isEqualTo("unknown failure");
    }

    @Test
    void aClosedUdpPortIsExplained() {
        // Java throws it without a message when a connected datagram channel gets ICMP port unreachable
        assertThat(Failures.describe(new PortUnreachableException()))
                .startsWith("the peer's UDP port is closed (ICMP port unreachable)").contains("--io-timeout");
    }

    @Test
    void aFileErrorThatNamesOnlyItsFileSaysWhy() {
        assertThat(Failures.describe(new java.nio.file.NoSuchFileException("/root/baselines/loopback.json")))
                .isEqualTo("/root/baselines/loopback.json: no such file or directory");
        assertThat(Failures.describe(new java.nio.file.AccessDeniedException("/proc/1/x"))).isEqualTo("/proc/1/x: permission denied");
        // a reason the file system gave is kept as the JDK writes it
        assertThat(Failures.describe(new java.nio.file.FileSystemException("/a", null, "Read-only file system")))
                .isEqualTo("/a: Read-only file system");
    }
}
