package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code serve} logs a line per test at info, its record beside the lines it prints; {@code serve
 * --quiet} leaves the servers' loggers at the default, warn.
 */
class VerboseQuietTest {
    private String saved;

    @BeforeEach
    void clear() {
        saved = System.clearProperty(Verbose.SERVE_LEVEL_PROPERTY);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(Verbose.SERVE_LEVEL_PROPERTY);
        } else {
            System.setProperty(Verbose.SERVE_LEVEL_PROPERTY, saved);
        }
    }

    @Test
    void quietIsEitherSpellingBeforeTheEndOfOptions() {
        assertThat(Verbose.quiet("serve", "--quiet")).isTrue();
        assertThat(Verbose.quiet("serve", "--iperf3", "-q")).isTrue();
        assertThat(Verbose.quiet("serve")).isFalse();
        assertThat(Verbose.quiet("serve", "--", "-q")).isFalse();
    }

    @Test
    void serveLogsEachTestAtInfoUnlessQuiet() {
        Verbose.apply("serve", "--iperf3", "--quiet");
        assertThat(System.getProperty(Verbose.SERVE_LEVEL_PROPERTY)).isNull();
        Verbose.apply("serve", "--iperf3");
        assertThat(System.getProperty(Verbose.SERVE_LEVEL_PROPERTY)).isEqualTo("info");
    }
}
