package io.linerate.core.latency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The facts a latency table's {@code #} header states about the run, as sfnt-pingpong prints them.
 * Tests inject fixed facts so that golden files do not depend on the host.
 *
 * @param version linerate's version
 * @param date when the run started, ISO-8601 UTC
 * @param uname kernel name, release and machine
 * @param cpu CPU model name
 * @param jvm JVM name, version and vendor
 * @param options the options the run was made with, as typed
 */
public record RunFacts(String version, String date, String uname, String cpu, String jvm, String options) {
    private static final Logger LOG = LoggerFactory.getLogger(RunFacts.class);
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");

    /** @throws NullPointerException if any fact is null */
    public RunFacts {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(uname, "uname");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(jvm, "jvm");
        Objects.requireNonNull(options, "options");
    }

    /**
     * Reads the facts of this host: the date now (to the second), the kernel from the JVM's
     * {@code os.*} properties, the first {@code model name} of /proc/cpuinfo ({@code unknown}
     * elsewhere), and the JVM from {@code java.*} properties.
     *
     * @param version linerate's version
     * @param options the options as typed
     * @return the facts
     */
    public static RunFacts detect(String version, String options) {
        String uname = System.getProperty("os.name", "?") + " " + System.getProperty("os.version", "?") + " "
                + System.getProperty("os.arch", "?");
        String jvm = System.getProperty("java.vm.name", "?") + " " + System.getProperty("java.runtime.version",
                System.getProperty("java.version", "?")) + " (" + System.getProperty("java.vm.vendor", "?") + ")";
        return new RunFacts(version, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), uname,
                cpuModel(CPUINFO).orElse("unknown"), jvm, options);
    }

    /**
     * @param cpuinfo a file in the format of Linux's /proc/cpuinfo
     * @return the value of its first {@code model name} line, if it has one
     */
    static Optional<String> cpuModel(Path cpuinfo) {
        if (!Files.isReadable(cpuinfo)) {
            LOG.debug("{} cannot be read; the run facts name no CPU model", cpuinfo);
            return Optional.empty();
        }
        try (Stream<String> lines = Files.lines(cpuinfo, StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.toLowerCase(Locale.ROOT).startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .filter(s -> !s.isEmpty())
                    .findFirst();
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("cannot read {}: {}; the run facts name no CPU model", cpuinfo, e.toString());
            return Optional.empty();
        }
    }
}
