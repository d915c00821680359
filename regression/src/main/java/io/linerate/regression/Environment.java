package io.linerate.regression;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a measurement was taken (docs/metrics.md section 4). Two environments match when kernel, CPU
 * model, JVM and transport are equal; the linerate version is recorded but not compared, so that a
 * baseline stays usable across commits of linerate itself.
 *
 * @param kernel operating system name and kernel release, such as {@code Linux 6.1.0-18-amd64}
 * @param cpu CPU model name, such as {@code Intel(R) Xeon(R) ...}; {@code unknown} when not found
 * @param jvm JVM name and version, such as {@code OpenJDK 64-Bit Server VM 17.0.15}
 * @param transport the transport that moved the data, such as {@code nio}
 * @param linerateVersion version of linerate that measured
 */
public record Environment(String kernel, String cpu, String jvm, String transport, String linerateVersion) {
    private static final Logger LOG = LoggerFactory.getLogger(Environment.class);
    /** Version written when the jar carries none. */
    public static final String DEVELOPMENT_VERSION = "0.1.0-SNAPSHOT";

    /** @throws NullPointerException for a null field */
    public Environment {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(jvm, "jvm");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(linerateVersion, "linerateVersion");
    }

    /**
     * @param transport name of the transport measured with
     * @return this machine's environment: {@code os.name os.version}, the first {@code model name}
     *     of {@code /proc/cpuinfo} (or {@code os.arch} elsewhere), {@code java.vm.name java.version}
     */
    public static Environment detect(String transport) {
        String cpu = System.getProperty("os.arch", "unknown");
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: keep the architecture
            LOG.debug("cannot read /proc/cpuinfo ({}); the environment names the architecture {} as its CPU",
                    e.toString(), cpu);
        }
        String version = Environment.class.getPackage().getImplementationVersion();
        return new Environment(System.getProperty("os.name") + " " + System.getProperty("os.version"), cpu,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), transport,
                version == null ? DEVELOPMENT_VERSION : version);
    }

    /** @return one {@code field: this vs other} text per compared field that differs; empty when they match */
    public List<String> differences(Environment other) {
        List<String> d = new ArrayList<>();
        diff(d, "kernel", kernel, other.kernel);
        diff(d, "cpu", cpu, other.cpu);
        diff(d, "jvm", jvm, other.jvm);
        diff(d, "transport", transport, other.transport);
        return d;
    }

    private static void diff(List<String> d, String field, String a, String b) {
        if (!a.equals(b)) {
            d.add(field + " '" + a + "' vs '" + b + "'");
        }
    }
}
