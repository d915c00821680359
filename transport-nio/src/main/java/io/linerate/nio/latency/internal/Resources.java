package io.linerate.nio.latency.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Release helpers for every path, failures included. */
final class Resources {
    private Resources() {}

    /** Closes each, in order, even when one fails; failures are dropped because the caller is already ending. */
    static void closeQuietly(List<? extends AutoCloseable> all) {
        for (AutoCloseable c : all) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // released as far as the OS allows; nothing more to do
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
        } catch (Exception ignored) {
            // a temp entry left behind is harmless; the run's result does not depend on it
        }
    }
}
