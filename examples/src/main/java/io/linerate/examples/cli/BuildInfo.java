package io.linerate.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

/**
 * What {@code linerate.jar} was built from, as its manifest records it: the version
 * ({@code Implementation-Version}), the commit ({@value #COMMIT}, git's abbreviated id), the
 * commit's date ({@value #COMMIT_DATE}, {@code yyyy-MM-dd} in UTC) and whether the work tree had
 * uncommitted changes, untracked files included ({@value #DIRTY}, {@code true} or {@code false}).
 * The build writes these with git-commit-id-maven-plugin; a build outside a git checkout leaves
 * them out (or, should the build change, an unresolved {@code ${...}} placeholder), and each then
 * reads as unknown.
 *
 * @param version the project version, such as {@code 0.1.0-SNAPSHOT}, or {@code dev} when not run from a jar
 * @param commit the abbreviated commit id, or empty when unknown
 * @param commitDate the commit's date, {@code yyyy-MM-dd}, or empty when unknown
 * @param dirty whether the work tree had uncommitted changes when built
 */
record BuildInfo(String version, Optional<String> commit, Optional<String> commitDate, boolean dirty) {
    /** Manifest attribute holding the abbreviated commit id. */
    static final String COMMIT = "Build-Commit";
    /** Manifest attribute holding the commit's date, {@code yyyy-MM-dd} in UTC. */
    static final String COMMIT_DATE = "Build-Commit-Date";
    /** Manifest attribute saying whether the work tree had uncommitted changes. */
    static final String DIRTY = "Build-Tree-Dirty";

    private static final String UNKNOWN_VERSION = "dev";

    /** Whatever the arguments, {@code version} is not null; an empty {@link Optional} means unknown. */
    BuildInfo {
        version = version == null ? UNKNOWN_VERSION : version;
    }

    /**
     * Reads the build facts from a manifest's main attributes.
     *
     * @param manifest a jar manifest
     * @return the facts, each absent, blank or unresolved attribute read as unknown
     */
    static BuildInfo of(Manifest manifest) {
        Attributes main = manifest.getMainAttributes();
        return new BuildInfo(known(main.getValue(Attributes.Name.IMPLEMENTATION_VERSION)).orElse(UNKNOWN_VERSION),
                known(main.getValue(COMMIT)), known(main.getValue(COMMIT_DATE)),
                "true".equals(main.getValue(DIRTY)));
    }

    /**
     * Reads the facts of the jar this class was loaded from.
     *
     * @return the facts, all unknown when this class was not loaded from a jar (as in the tests)
     *     or its manifest cannot be read
     */
    static BuildInfo current() {
        URL self = BuildInfo.class.getResource(BuildInfo.class.getSimpleName() + ".class");
        if (self == null || !"jar".equals(self.getProtocol())) {
            return new BuildInfo(UNKNOWN_VERSION, Optional.empty(), Optional.empty(), false);
        }
        String jar = self.toString();
        URI manifest = URI.create(jar.substring(0, jar.indexOf("!/") + 2) + "META-INF/MANIFEST.MF");
        try (InputStream in = manifest.toURL().openStream()) {
            return of(new Manifest(in));
        } catch (IOException e) {
            return new BuildInfo(UNKNOWN_VERSION, Optional.empty(), Optional.empty(), false);
        }
    }

    /**
     * @return the line {@code --version} prints, such as
     *     {@code linerate 0.1.0 (commit 1a2b3c4, 2026-12-01)}; {@code -dirty} follows the commit
     *     id when the tree had uncommitted changes (as {@code git describe --dirty} writes it), and
     *     an unknown commit reads {@code (commit unknown)}
     */
    String versionLine() {
        if (commit.isEmpty()) {
            return "linerate " + version + " (commit unknown)";
        }
        return "linerate " + version + " (commit " + commit.get() + (dirty ? "-dirty" : "")
                + commitDate.map(d -> ", " + d).orElse("") + ")";
    }

    private static Optional<String> known(String value) {
        if (value == null || value.isBlank() || value.contains("${")) {
            return Optional.empty();
        }
        return Optional.of(value.strip());
    }
}
