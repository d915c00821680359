package io.linerate.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution {@code mvn package} builds, as a user gets it: unpacks
 * {@code linerate-<version>-bin.tar.gz} and runs its {@code bin/linerate}. Failsafe passes the
 * version, the archive, the unpacked directory the build also lays out, and the project's directory
 * (for the commit git names) as system properties.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DistributionIT {
    /** Bound on each process run here, generous for a loaded machine. */
    private static final long PROCESS_BOUND_S = 120;
    private static final String VERSION = System.getProperty("linerate.version");
    private static final Path ARCHIVE = Path.of(System.getProperty("linerate.distribution"));
    private static final Path LAID_OUT = Path.of(System.getProperty("linerate.distribution.dir"));
    private static final Path BASEDIR = Path.of(System.getProperty("linerate.basedir"));
    private static final String TOP = "linerate-" + VERSION + "/";
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    /** The loopback suite's tcp4 row: payload, time measured, throughput, bytes sent and received. */
    private static final Pattern TCP4_ROW =
            Pattern.compile("tcp4\\s+\\d+ B\\s+\\d+\\.\\d+ s\\s+\\d+\\.\\d+ \\S?bits/sec\\s+sent \\d+ B\\s+received \\d+ B.*");

    @TempDir
    static Path tmp;
    /** Each entry of the archive, by name, as read from it. */
    static Map<String, TarArchiveEntry> entries;
    static Path home;

    /** What one process printed, and its exit code. */
    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    @BeforeAll
    static void unpack() throws IOException {
        entries = new TreeMap<>();
        Path root = tmp.resolve("unpacked");
        try (InputStream file = Files.newInputStream(ARCHIVE);
                TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(file))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                entries.put(e.getName(), e);
                Path to = root.resolve(e.getName()).normalize();
                assertThat(to.startsWith(root)).as("entry %s stays inside the archive's directory", e.getName())
                        .isTrue();
                if (e.isDirectory()) {
                    Files.createDirectories(to);
                    continue;
                }
                Files.createDirectories(to.getParent());
                Files.copy(tar, to);
                Files.setPosixFilePermissions(to, permissions(e.getMode()));
            }
        }
        home = root.resolve(TOP);
    }

    @Test
    void archiveHoldsAnExecutableLauncherTheJarAndTheReadme() {
        assertThat(entries.keySet()).allMatch(name -> name.startsWith(TOP), "is under " + TOP)
                .contains(TOP + "bin/linerate", TOP + "lib/linerate.jar", TOP + "README.md");
        assertThat(entries.get(TOP + "bin/linerate").getMode() & 0777).as("launcher's mode").isEqualTo(0755);
        assertThat(entries.get(TOP + "lib/linerate.jar").getSize())
                .as("size of lib/linerate.jar, the shaded jar next to the distribution")
                .isEqualTo(size(ARCHIVE.resolveSibling("linerate.jar")));
    }

    @Test
    void everyDocsPageTheReadmeLinksToIsInTheArchive() throws IOException {
        String readme = Files.readString(home.resolve("README.md"));
        java.util.regex.Matcher m = Pattern.compile("\\]\\((docs/[^)#]+\\.md)").matcher(readme);
        Set<String> linked = new TreeSet<>();
        while (m.find()) {
            linked.add(m.group(1));
        }
        assertThat(linked).as("docs pages the README links to").isNotEmpty();
        for (String page : linked) {
            assertThat(entries).as("the archive holds %s", page).containsKey(TOP + page);
        }
    }

    @Test
    void theJarHoldsBothNativeLibrariesAndTheMergedServiceFiles() throws IOException {
        try (JarFile jar = new JarFile(home.resolve("lib/linerate.jar").toFile())) {
            assertThat(jar.getEntry("META-INF/native/linux-x86_64/liblinerate-native.so")).as("the shared native layer's library")
                    .isNotNull();
            assertThat(jar.getEntry("META-INF/native/linux-x86_64/liblinerate-afpacket.so")).as("AF_PACKET's library")
                    .isNotNull();
            assertThat(jar.getEntry("META-INF/native/linux-x86_64/liblinerate-socket.so")).as("the native sockets' library")
                    .isNotNull();
            // one file per service, each line of every module's file in it
            assertThat(services(jar, "io.linerate.core.spi.Transport"))
                    .contains("io.linerate.nio.NioTransport", "io.linerate.afpacket.AfPacketTransport",
                            "io.linerate.socket.NativeTransport");
            assertThat(services(jar, "io.linerate.core.spi.cost.CpuCounterProvider"))
                    .containsExactly("io.linerate.jni.PerfEventCounters");
        }
    }

    /** @return the provider lines of the jar's service file for {@code service} */
    private static List<String> services(JarFile jar, String service) throws IOException {
        JarEntry e = jar.getJarEntry("META-INF/services/" + service);
        assertThat(e).as("META-INF/services/%s in lib/linerate.jar", service).isNotNull();
        try (InputStream in = jar.getInputStream(e)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
    }

    @Test
    void laidOutDirectoryHoldsWhatTheArchiveHolds() throws IOException {
        assertThat(regularFiles(LAID_OUT)).isEqualTo(regularFiles(home));
        assertThat(Files.isExecutable(LAID_OUT.resolve("bin/linerate"))).as("bin/linerate is executable").isTrue();
    }

    @Test
    void versionNamesTheProjectVersionAndTheCommit() throws Exception {
        Run run = run(Map.of("JAVA_HOME", JAVA_HOME.toString()), home.resolve("bin/linerate").toString(), "--version");
        Optional<String[]> head = headCommitAndDate();

        assertThat(run.exit()).as(run.toString()).isZero();
        if (head.isEmpty()) {
            // no git to ask (or no checkout): the build may or may not have found the commit
            assertThat(run.out().strip())
                    .matches("linerate \\Q" + VERSION + "\\E \\(commit (unknown|\\p{XDigit}{7,}.*)\\)");
            return;
        }
        var line = Pattern.compile("linerate (\\S+) \\(commit (\\p{XDigit}{7,})(-dirty)?, (\\d{4}-\\d{2}-\\d{2})\\)")
                .matcher(run.out().strip());
        assertThat(line.matches()).as("version line: %s", run.out()).isTrue();
        assertThat(line.group(1)).isEqualTo(VERSION);
        assertThat(head.get()[0]).as("the commit git names").startsWith(line.group(2));
        assertThat(line.group(4)).as("its date").isEqualTo(head.get()[1]);
    }

    /** @return the full id and the date (UTC) of the commit the project's checkout is at, as git names them */
    private static Optional<String[]> headCommitAndDate() throws InterruptedException {
        try {
            Run head = run(Map.of("TZ", "UTC"), "git", "-C", BASEDIR.toString(), "show", "-s",
                    "--format=%H %cd", "--date=format-local:%Y-%m-%d", "HEAD");
            return head.exit() == 0 ? Optional.of(head.out().strip().split(" ")) : Optional.empty();
        } catch (IOException noGit) {
            return Optional.empty();
        }
    }

    @Test
    void loopbackRunsWithJavaFromPath() throws Exception {
        Run run = run(Map.of("PATH", JAVA_HOME.resolve("bin") + ":" + System.getenv("PATH")),
                home.resolve("bin/linerate").toString(), "loopback", "--duration", "200ms");

        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(run.out().lines())
                .as(run.toString())
                .anyMatch(l -> TCP4_ROW.matcher(l).matches())
                .anyMatch(l -> l.matches("ZPERF-RESULT tcp4_mbps=\\d+\\.\\d+"));
    }

    @Test
    void symlinksToTheLauncherFindTheDistribution() throws Exception {
        Path links = Files.createDirectories(tmp.resolve("links"));
        Path direct = Files.createSymbolicLink(links.resolve("direct"), home.resolve("bin/linerate"));
        Path chained = Files.createSymbolicLink(links.resolve("linerate"), Path.of("direct"));

        // a shell finds linerate on PATH (ProcessBuilder would search this JVM's PATH, not the child's)
        Run byPath = run(Map.of("JAVA_HOME", JAVA_HOME.toString(), "PATH", links + ":" + System.getenv("PATH")),
                "/bin/sh", "-c", "exec linerate --version");
        Run byLink = run(Map.of("JAVA_HOME", JAVA_HOME.toString()), direct.toString(), "--version");

        assertThat(chained).isSymbolicLink();
        assertThat(byPath.exit()).as(byPath.toString()).isZero();
        assertThat(byPath.out()).startsWith("linerate " + VERSION + " (commit ");
        assertThat(byLink.out()).as(byLink.toString()).isEqualTo(byPath.out());
    }

    @Test
    void javaOptsReachTheJvm() throws Exception {
        // picocli reads its trace level from a system property and reports what it parses on stderr
        Run run = run(Map.of("JAVA_HOME", JAVA_HOME.toString(), "JAVA_OPTS", "-Xmx256m -Dpicocli.trace=INFO"),
                home.resolve("bin/linerate").toString(), "--version");

        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(run.err()).as(run.toString()).contains("[picocli INFO]");
    }

    @Test
    void exitCodeIsTheCommandsOwn() throws Exception {
        Run run = run(Map.of("JAVA_HOME", JAVA_HOME.toString()), home.resolve("bin/linerate").toString(),
                "--no-such-option");

        assertThat(run.exit()).as("bad usage, " + run).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--no-such-option'");
    }

    /**
     * Runs {@code command} in the temporary directory with this JVM's environment less
     * {@code JAVA_HOME} and {@code JAVA_OPTS}, plus {@code env}; waits at most
     * {@value #PROCESS_BOUND_S} s and destroys the process, and anything it started, on every path.
     */
    private static Run run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            p.getOutputStream().close();
            if (!p.waitFor(PROCESS_BOUND_S, TimeUnit.SECONDS)) {
                fail("%s did not end within %d s; stdout so far:%n%s", List.of(command), PROCESS_BOUND_S,
                        Files.readString(out, StandardCharsets.UTF_8));
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** @return the permissions of a tar entry's mode, such as 0755 */
    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, 0400 .. 0001
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (0400 >> i)) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    /** @return each regular file under {@code dir}, as a path relative to it, with its size in bytes */
    private static Map<String, Long> regularFiles(Path dir) throws IOException {
        Map<String, Long> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(f).toString(), size(f));
            }
        }
        return files;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new AssertionError("cannot read the size of " + file, e);
        }
    }
}
