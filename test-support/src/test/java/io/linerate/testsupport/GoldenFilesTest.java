package io.linerate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoldenFilesTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearUpdate() {
        System.clearProperty(GoldenFiles.UPDATE_PROPERTY);
    }

    @Test
    void equalTextPasses() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "tcp 9.41 Gbit/s\n", StandardCharsets.UTF_8);

        GoldenFiles.assertMatches(dir, "a.txt", "tcp 9.41 Gbit/s\n");
    }

    @Test
    void differentTextFailsWithBothTexts() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "tcp 9.41 Gbit/s\n", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> GoldenFiles.assertMatches(dir, "a.txt", "tcp 9.42 Gbit/s\n"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("tcp 9.41 Gbit/s")
                .hasMessageContaining("tcp 9.42 Gbit/s");
    }

    @Test
    void aMissingFileFailsNamingTheUpdateProperty() {
        assertThatThrownBy(() -> GoldenFiles.assertMatches(dir, "missing.txt", "x"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("missing.txt")
                .hasMessageContaining("-Dlinerate.golden.update=true");
    }

    @Test
    void theUpdatePropertyWritesTheFileWithItsDirectories() throws Exception {
        Files.writeString(dir.resolve("old.txt"), "old\n", StandardCharsets.UTF_8);
        System.setProperty(GoldenFiles.UPDATE_PROPERTY, "true");

        GoldenFiles.assertMatches(dir, "old.txt", "new\n");
        GoldenFiles.assertMatches(dir, "ktap/run.ktap", "KTAP version 1\n1..1\n");

        assertThat(dir.resolve("old.txt")).content(StandardCharsets.UTF_8).isEqualTo("new\n");
        assertThat(dir.resolve("ktap/run.ktap")).content(StandardCharsets.UTF_8).isEqualTo("KTAP version 1\n1..1\n");
    }
}
