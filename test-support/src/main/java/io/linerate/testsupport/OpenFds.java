package io.linerate.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * This process's open sockets, pipes and anonymous inodes (epoll and event descriptors of
 * selectors), as /proc/self/fd shows them: what a transfer opens and must close. Regular files are
 * left out, because the JVM opens and closes some on its own at any moment (its container support
 * reads /sys/fs/cgroup, class loading opens jars), and so are Unix-domain sockets (those
 * /proc/net/unix lists), which no IP transfer opens and the JVM or the C library may open and keep
 * (a socket pair) at any moment. Compare a snapshot before a transfer with one after it: what
 * remains is a descriptor the transfer leaked. Linux only.
 */
public final class OpenFds {
    private OpenFds() {
    }

    /**
     * @return {@code "<fd> -> <target>"} for each open socket, pipe and anonymous inode
     * @throws IOException if /proc/self/fd cannot be read (not Linux)
     */
    public static Set<String> snapshot() throws IOException {
        Set<String> unix = unixSocketInodes();
        Set<String> out = new TreeSet<>();
        for (String fd : Objects.requireNonNull(new File("/proc/self/fd").list())) {
            try {
                String target = Files.readSymbolicLink(Path.of("/proc/self/fd", fd)).toString();
                if (target.startsWith("socket:") && unix.contains(target)) {
                    continue;
                }
                if (target.startsWith("socket:") || target.startsWith("pipe:") || target.startsWith("anon_inode:")) {
                    out.add(fd + " -> " + target);
                }
            } catch (NoSuchFileException e) {
                // the directory listing's own descriptor, closed again
            }
        }
        return out;
    }

    /** @return {@code socket:[inode]} for every Unix-domain socket of the host (unix(7): /proc/net/unix, inode last) */
    private static Set<String> unixSocketInodes() throws IOException {
        Set<String> out = new HashSet<>();
        List<String> lines = Files.readAllLines(Path.of("/proc/net/unix"));
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 7) {
                out.add("socket:[" + f[6] + "]");
            }
        }
        return out;
    }
}
