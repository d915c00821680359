package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The confinement of file names derived from input data (docs/metrics.md section 8). */
class SafePathsTest {
    @TempDir
    Path root;

    private Path base() throws IOException {
        Path base = Files.createDirectories(root.resolve("base/sub"));
        Files.writeString(base.resolve("run.log"), "ZPERF-RESULT udp4_mbps=1\n");
        Files.writeString(root.resolve("secret.log"), "outside\n");
        return root.resolve("base");
    }

    @Test
    void relativePathsUnderTheBaseAreReadAndWritten() throws IOException {
        SafePaths paths = new SafePaths(base());
        assertThat(paths.read("sub/run.log")).isEqualTo("ZPERF-RESULT udp4_mbps=1\n");
        assertThat(paths.read("./sub/run.log")).isEqualTo("ZPERF-RESULT udp4_mbps=1\n");
        paths.write("sub/report.md", "x");
        assertThat(root.resolve("base/sub/report.md")).hasContent("x");
    }

    @Test
    void dotDotIsRefused() throws IOException {
        SafePaths paths = new SafePaths(base());
        assertThatThrownBy(() -> paths.read("../secret.log")).isInstanceOf(SafePaths.UnsafePathException.class)
                .hasMessage("path ../secret.log contains '..'; allowed: a relative path under the output directory");
        assertThatThrownBy(() -> paths.write("sub/../../x.json", "x")).hasMessageContaining("path sub/../../x.json contains '..'");
        assertThat(root.resolve("x.json")).doesNotExist();
    }

    @Test
    void absolutePathsAreRefused() throws IOException {
        SafePaths paths = new SafePaths(base());
        String abs = root.resolve("base/sub/run.log").toString();
        assertThatThrownBy(() -> paths.read(abs)).hasMessage("absolute path " + abs
                + " is not allowed; allowed: a relative path under the output directory");
    }

    @Test
    void linksThatEscapeAreRefusedForReadingAndWriting() throws IOException {
        Path base = base();
        Files.createSymbolicLink(base.resolve("escape.log"), root.resolve("secret.log"));
        Files.createSymbolicLink(base.resolve("out"), root);
        Files.createSymbolicLink(base.resolve("inside.log"), base.resolve("sub/run.log"));
        SafePaths paths = new SafePaths(base);
        assertThatThrownBy(() -> paths.read("escape.log")).hasMessageStartingWith("path escape.log resolves outside the output directory");
        assertThatThrownBy(() -> paths.write("escape.log", "overwritten"))
                .hasMessageStartingWith("path escape.log resolves outside the output directory");
        assertThat(root.resolve("secret.log")).hasContent("outside");
        assertThatThrownBy(() -> paths.write("out/new.json", "x"))
                .hasMessageStartingWith("path out/new.json resolves outside the output directory");
        assertThat(root.resolve("new.json")).doesNotExist();
        assertThat(paths.read("inside.log")).isEqualTo("ZPERF-RESULT udp4_mbps=1\n");
    }

    @Test
    void aMissingFileIsNamed() throws IOException {
        SafePaths paths = new SafePaths(base());
        assertThatThrownBy(() -> paths.read("nope.log")).hasMessage("path nope.log does not exist under the output directory");
    }

    @Test
    void derivedNamesGetTheirDirectoriesCreatedOnlyInside() throws IOException {
        Path base = base();
        Files.createSymbolicLink(base.resolve("out"), root);
        SafePaths paths = new SafePaths(base);
        assertThat(paths.forCreating("baselines/tcp/tcp4.json")).isEqualTo(base.toRealPath().resolve("baselines/tcp/tcp4.json"));
        assertThat(base.resolve("baselines/tcp")).isDirectory();
        // a link in the way is followed only to be refused, and nothing is created beyond it
        assertThatThrownBy(() -> paths.forCreating("out/made/x.json"))
                .hasMessageStartingWith("path out/made/x.json resolves outside the output directory");
        assertThat(root.resolve("made")).doesNotExist();
        assertThatThrownBy(() -> paths.forCreating("sub/run.log/x.json")).hasMessage("path sub/run.log/x.json: sub/run.log is not a directory");
    }
}
