package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares output with a file under src/test/resources/golden. Run the tests with
 * {@code -Dlinerate.golden.update=true} to rewrite the files after a deliberate format change,
 * then review the diff.
 */
final class GoldenFiles {
    private static final Path DIR = Path.of("src", "test", "resources", "golden");

    private GoldenFiles() {}

    static void assertMatches(String name, String actual) throws IOException {
        Path file = DIR.resolve(name);
        if (Boolean.getBoolean("linerate.golden.update")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(file).as("golden file %s (create it with -Dlinerate.golden.update=true)", file).exists();
        assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }
}
