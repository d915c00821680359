package io.linerate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class PeerToolTest {
    @Test
    void onPathFindsAnExecutableByItsFileName() {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "skipped: no /bin/sh (not a POSIX system)");

        String sh = PeerTool.onPath("sh");

        assertThat(sh).isNotNull();
        assertThat(Path.of(sh).getFileName()).hasToString("sh");
        assertThat(Path.of(sh)).isExecutable();
    }

    @Test
    void onPathGivesNullForAToolNotInstalled() {
        assertThat(PeerTool.onPath("linerate-no-such-tool")).isNull();
    }

    @Test
    void requireOfAMissingToolSkipsOrFailsNamingThePackage() {
        Throwable t = catchThrowable(() -> PeerTool.require("linerate-no-such-tool", "no-such-package"));

        if (System.getenv("CI") != null) {
            assertThat(t).isInstanceOf(AssertionError.class);
        } else {
            assertThat(t).isInstanceOf(TestAbortedException.class);
        }
        assertThat(t).hasMessageContaining("linerate-no-such-tool is not installed (Debian package no-such-package)");
    }
}
