package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;

class BuildInfoTest {
    private static Manifest manifest(Map<String, String> attributes) {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.forEach((k, v) -> m.getMainAttributes().putValue(k, v));
        return m;
    }

    @Test
    void namesVersionCommitAndDate() {
        BuildInfo info = BuildInfo.of(manifest(Map.of("Implementation-Version", "0.3.1",
                "Build-Commit", "1a2b3c4", "Build-Commit-Date", "2026-12-01", "Build-Tree-Dirty", "false")));

        assertThat(info.versionLine()).isEqualTo("linerate 0.3.1 (commit 1a2b3c4, 2026-12-01)");
    }

    @Test
    void marksUncommittedChangesAsGitDescribeDoes() {
        BuildInfo info = BuildInfo.of(manifest(Map.of("Implementation-Version", "0.3.1",
                "Build-Commit", "1a2b3c4", "Build-Commit-Date", "2026-12-01", "Build-Tree-Dirty", "true")));

        assertThat(info.versionLine()).isEqualTo("linerate 0.3.1 (commit 1a2b3c4-dirty, 2026-12-01)");
    }

    @Test
    void unresolvedPlaceholdersOfABuildOutsideGitReadAsUnknown() {
        BuildInfo info = BuildInfo.of(manifest(Map.of("Implementation-Version", "0.3.1",
                "Build-Commit", "${git.commit.id.abbrev}", "Build-Commit-Date", "${git.commit.time}",
                "Build-Tree-Dirty", "${git.dirty}")));

        assertThat(info.commit()).isEmpty();
        assertThat(info.commitDate()).isEmpty();
        assertThat(info.dirty()).isFalse();
        assertThat(info.versionLine()).isEqualTo("linerate 0.3.1 (commit unknown)");
    }

    @Test
    void absentAttributesReadAsUnknown() {
        assertThat(BuildInfo.of(manifest(Map.of())).versionLine()).isEqualTo("linerate dev (commit unknown)");
    }

    @Test
    void aCommitWithoutItsDateIsStillNamed() {
        BuildInfo info = BuildInfo.of(manifest(Map.of("Implementation-Version", "0.3.1", "Build-Commit", "1a2b3c4")));

        assertThat(info.versionLine()).isEqualTo("linerate 0.3.1 (commit 1a2b3c4)");
    }

    @Test
    void classesOutsideAJarHaveNoManifestToRead() {
        // the tests load the command line from target/classes, not from linerate.jar
        assertThat(BuildInfo.current().versionLine()).isEqualTo("linerate dev (commit unknown)");
        assertThat(LinerateCliTest.linerate("--version").out().strip()).isEqualTo("linerate dev (commit unknown)");
    }
}
