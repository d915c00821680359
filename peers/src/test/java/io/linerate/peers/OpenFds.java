package io.linerate.peers;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * This process's open sockets, pipes and anonymous inodes (epoll and event descriptors of
 * selectors), as /proc/self/fd shows them: what a transfer opens and must close. Regular files are
 * left out, because the JVM opens and closes some on its own at any moment (its container support
 * reads /sys/fs/cgroup, class loading opens jars).
 */
public final class OpenFds {
    private OpenFds() {
    }

    /** @return {@code "<fd> -> <target>"} for each open socket, pipe and anonymous inode */
    public static Set<String> snapshot() throws IOException {
        Set<String> out = new TreeSet<>();
        for (String fd : Objects.requireNonNull(new File("/proc/self/fd").list())) {
            try {
                String target = Files.readSymbolicLink(Path.of("/proc/self/fd", fd)).toString();
                if (target.startsWith("socket:") || target.startsWith("pipe:") || target.startsWith("anon_inode:")) {
                    out.add(fd + " -> " + target);
                }
            } catch (NoSuchFileException e) {
                // the directory listing's own descriptor, closed again
            }
        }
        return out;
    }
}
