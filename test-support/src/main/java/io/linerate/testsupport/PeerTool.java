package io.linerate.testsupport;

import java.io.File;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds a peer tool (iperf3, iperf 2) on {@code PATH} that interop tests run against. Off CI a
 * missing tool skips the test with the package to install; under CI (the environment variable
 * {@code CI} set, as CI services set it, where the build installs the packages) it fails, so that
 * a broken install cannot silently drop the interop coverage.
 */
public final class PeerTool {
    private PeerTool() {
    }

    /**
     * @param name the program's file name, such as {@code iperf3}
     * @return the path of {@code name} on PATH, or null when it is not there
     */
    public static String onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            File f = new File(dir, name);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    /**
     * @param name the program's file name, such as {@code iperf}
     * @param debianPackage the Debian package that installs it, named in the skip or failure message
     * @return the path of {@code name}; aborts the calling test (off CI) or fails it (under CI)
     *         when the tool is missing
     */
    public static String require(String name, String debianPackage) {
        String path = onPath(name);
        if (path == null) {
            String why = name + " is not installed (Debian package " + debianPackage + ")";
            if (System.getenv("CI") != null) {
                Assertions.fail(why + "; CI must install it");
            }
            Assumptions.abort("skipped: " + why);
        }
        return path;
    }
}
