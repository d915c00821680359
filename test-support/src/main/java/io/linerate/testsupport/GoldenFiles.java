package io.linerate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares a test's output with a golden file, a UTF-8 text file kept beside the tests (by default
 * under {@value #DEFAULT_DIR} of the module that runs the test, Maven's working directory). Run the
 * tests with {@code -D}{@value #UPDATE_PROPERTY}{@code =true} to rewrite the files from the actual
 * output after a deliberate format change, then review the diff.
 */
public final class GoldenFiles {
    /** The system property that rewrites the golden files from the actual output when {@code true}. */
    public static final String UPDATE_PROPERTY = "linerate.golden.update";
    /** The directory of the golden files, relative to the module's directory. */
    public static final String DEFAULT_DIR = "src/test/resources/golden";

    private GoldenFiles() {}

    /**
     * Asserts that {@code actual} equals the golden file {@code name} under {@value #DEFAULT_DIR}.
     *
     * @param name the file's path relative to {@value #DEFAULT_DIR}, such as {@code latency/rr.txt}
     * @param actual the output under test
     * @throws IOException if the file cannot be read, or written when updating
     * @throws AssertionError if the file is missing or its text differs from {@code actual}
     */
    public static void assertMatches(String name, String actual) throws IOException {
        assertMatches(Path.of(DEFAULT_DIR), name, actual);
    }

    /**
     * Asserts that {@code actual} equals the golden file {@code dir/name}, rewriting the file first
     * when {@value #UPDATE_PROPERTY} is {@code true}.
     *
     * @param dir the directory of the golden files
     * @param name the file's path relative to {@code dir}
     * @param actual the output under test
     * @throws IOException if the file cannot be read, or written when updating
     * @throws AssertionError if the file is missing or its text differs from {@code actual}
     */
    public static void assertMatches(Path dir, String name, String actual) throws IOException {
        Path file = dir.resolve(name);
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(file).as("golden file %s (create it with -D%s=true)", file, UPDATE_PROPERTY).exists();
        assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }
}
