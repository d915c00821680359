package io.linerate.regression;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.TestReporter;

/**
 * Baselines of JUnit tests: reading one from the class path, saying how to make a missing one,
 * and telling the user which file a run saved.
 */
final class BaselineResources {
    /** Report entry (and stdout line) of a saved baseline: its absolute path. */
    static final String SAVED_ENTRY = "linerate.baseline.saved";

    private static final Set<String> OWN = Set.of(MetricAssertions.class.getName(), BaselineResources.class.getName(),
            TestBaseline.class.getName());

    private BaselineResources() {}

    /**
     * @param resource class-path name of a baseline file
     * @param testSelector the value of Surefire's {@code -Dtest} that runs the test, such as
     *     {@code PacedTest#pacedTcp}; null to name the calling class
     * @return the file's text (UTF-8)
     * @throws IllegalArgumentException when it is not on the class path, naming the property and a
     *     command that makes it, or cannot be read
     */
    static String read(String resource, String testSelector) {
        checkName(resource);
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        URL url = cl == null ? null : cl.getResource(resource);
        if (url != null && "file".equals(url.getProtocol()) && isDirectory(url)) {
            throw new IllegalArgumentException("baseline resource " + resource + " is a directory on the class path; "
                    + ALLOWED);
        }
        try (InputStream in = url == null ? null : url.openStream()) {
            if (in == null) {
                throw new IllegalArgumentException(missing(resource, testSelector != null ? testSelector : callingClass()));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read baseline resource " + resource + ": " + e.getMessage(), e);
        }
    }

    private static final String ALLOWED = "allowed: a file's name relative to the class path's root, without '..', "
            + "such as baselines/loopback.json";

    /**
     * The same name is read from the class path and, with {@value MetricAssertions#SAVE_PROPERTY},
     * written under a directory, so it must be one both can use.
     *
     * @param resource class-path name of a baseline file
     * @throws IllegalArgumentException when it is empty, absolute, or has a {@code ..} element
     */
    static void checkName(String resource) {
        if (resource == null || resource.isBlank()) {
            throw new IllegalArgumentException("baseline resource name '" + (resource == null ? "" : resource)
                    + "' is empty; " + ALLOWED);
        }
        if (resource.startsWith("/") || resource.startsWith("\\")) {
            throw new IllegalArgumentException("baseline resource " + resource + " is absolute; " + ALLOWED);
        }
        for (String element : resource.split("[/\\\\]")) {
            if (element.equals("..")) {
                throw new IllegalArgumentException("baseline resource " + resource + " has a '..' element; " + ALLOWED);
            }
        }
    }

    private static boolean isDirectory(URL url) {
        try {
            return Files.isDirectory(Path.of(url.toURI()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * @param e a failed read or write
     * @return the file and why it failed, such as {@code /x/baselines: permission denied}; the JDK's
     *     message of a denied or missing file is the file's name alone
     */
    static String reason(IOException e) {
        return io.linerate.core.Failures.describe(e);
    }

    /** @return what to do about a baseline that is not on the class path */
    static String missing(String resource, String testSelector) {
        return "baseline resource " + resource + " is not on the class path. Make it from a run: with the system"
                + " property " + MetricAssertions.SAVE_PROPERTY + "=DIR set, the test writes its run as DIR/" + resource
                + " instead of comparing, as in\n  mvn test -Dtest=" + testSelector + " -D" + MetricAssertions.SAVE_PROPERTY
                + "=src/test/resources\nthen review the file and commit it.";
    }

    /**
     * Publishes {@value #SAVED_ENTRY} = the file's absolute path through {@code reporter} (when not
     * null) and prints {@code linerate: saved baseline <path> (<n> series)} on {@code out}.
     *
     * @return the absolute path
     */
    static Path reportSaved(Path file, Baseline baseline, TestReporter reporter, PrintStream out) throws IOException {
        Path real = file.toRealPath();
        if (reporter != null) {
            reporter.publishEntry(SAVED_ENTRY, real.toString());
        }
        out.println("linerate: saved baseline " + real + " (" + baseline.series().size() + " series)");
        return real;
    }

    /** @return the top-level simple name of the first calling class outside these helpers */
    private static String callingClass() {
        return StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                        .filter(c -> !OWN.contains(c)).findFirst())
                .map(c -> c.substring(c.lastIndexOf('.') + 1).replaceFirst("\\$.*", ""))
                .orElse("<TestClass>");
    }
}
