package io.linerate.nio.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Release helpers for every path, failures included. */
final class Resources {
    private static final Logger LOG = LoggerFactory.getLogger(Resources.class);
    private Resources() {}

    /** Closes each, in order, even when one fails; failures are dropped because the caller is already ending. */
    static void closeQuietly(List<? extends AutoCloseable> all) {
        for (AutoCloseable c : all) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // released as far as the OS allows; nothing more to do
                LOG.debug("closing {} reported {}", c, e.toString());
            }
        }
    }

    /** Deletes a socket file and its directory, if present. */
    static void deleteQuietly(Path file, Path dir) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
            if (dir != null) {
                Files.deleteIfExists(dir);
            }
        } catch (Exception e) {
            // a temp entry left behind is harmless; the run's result does not depend on it
            LOG.debug("cannot delete the socket file {} or its directory {}: {}", file, dir, e.toString());
        }
    }
}
