package io.linerate.regression;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * File names derived from input data, confined to an output directory (docs/metrics.md section 8).
 * When a series, test or resource name becomes a file name, it is accepted only when it is
 * relative, has no {@code ..} element, and resolves under the output directory after every
 * symbolic link is followed: for reading the file itself, for writing its parent directory and,
 * when it exists, the file itself. Everything else is refused with an {@link UnsafePathException}
 * naming the path. Paths a user typed (command-line arguments, API parameters) do not come here:
 * they are used as given ({@link GateFiles}).
 */
public final class SafePaths {
    private final Path base;

    /**
     * @param outputDir the directory every path must stay under
     * @throws UnsafePathException when it does not exist or is not a directory
     */
    public SafePaths(Path outputDir) {
        try {
            this.base = outputDir.toRealPath();
        } catch (IOException e) {
            throw new UnsafePathException("output directory " + outputDir + " does not exist");
        }
        if (!Files.isDirectory(base)) {
            throw new UnsafePathException("output directory " + outputDir + " is not a directory");
        }
    }

    /** Thrown for a path outside the output directory, absolute, with {@code ..}, or unreadable. */
    public static final class UnsafePathException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** @param message names the path and why it is refused */
        public UnsafePathException(String message) {
            super(message);
        }
    }

    /** @return the real output directory */
    public Path base() {
        return base;
    }

    /**
     * @param path a relative path
     * @return the real path of an existing file under the output directory
     * @throws UnsafePathException when the path is refused or the file does not exist
     */
    public Path forReading(String path) {
        Path p = checkSyntax(path);
        Path resolved = base.resolve(p);
        Path real;
        try {
            real = resolved.toRealPath();
        } catch (IOException e) {
            throw new UnsafePathException("path " + path + " does not exist under the output directory");
        }
        if (!real.startsWith(base)) {
            throw new UnsafePathException("path " + path + " resolves outside the output directory (links to " + real + ")");
        }
        if (!Files.isRegularFile(real)) {
            throw new UnsafePathException("path " + path + " is not a regular file");
        }
        return real;
    }

    /**
     * @param path a relative path whose parent directory exists
     * @return the path to write, under the output directory
     * @throws UnsafePathException when the path is refused
     */
    public Path forWriting(String path) {
        Path p = checkSyntax(path);
        Path resolved = base.resolve(p);
        Path parent = resolved.getParent();
        Path realParent;
        try {
            realParent = parent.toRealPath();
        } catch (IOException e) {
            throw new UnsafePathException("path " + path + ": its directory does not exist under the output directory");
        }
        if (!realParent.startsWith(base)) {
            throw new UnsafePathException("path " + path + " resolves outside the output directory (its directory links to "
                    + realParent + ")");
        }
        Path target = realParent.resolve(resolved.getFileName());
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(target)) {
            Path real;
            try {
                real = target.toRealPath();
            } catch (IOException e) {
                throw new UnsafePathException("path " + path + " is a link that cannot be followed");
            }
            if (!real.startsWith(base)) {
                throw new UnsafePathException("path " + path + " resolves outside the output directory (links to " + real + ")");
            }
            if (Files.isDirectory(real)) {
                throw new UnsafePathException("path " + path + " is a directory");
            }
            return real;
        }
        return target;
    }

    /**
     * As {@link #forWriting(String)}, after creating the missing directories of {@code path} one
     * by one, each only inside a directory already checked to lie under the output directory.
     *
     * @param path a relative path
     * @return the path to write, under the output directory
     * @throws UnsafePathException when the path is refused
     * @throws IOException when a directory cannot be created
     */
    public Path forCreating(String path) throws IOException {
        Path p = checkSyntax(path);
        Path dir = base;
        for (int i = 0; i < p.getNameCount() - 1; i++) {
            Path next = dir.resolve(p.getName(i));
            if (Files.notExists(next, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(next);
            }
            Path real = next.toRealPath();
            if (!real.startsWith(base)) {
                throw new UnsafePathException("path " + path + " resolves outside the output directory (its directory links to "
                        + real + ")");
            }
            if (!Files.isDirectory(real)) {
                throw new UnsafePathException("path " + path + ": " + p.subpath(0, i + 1) + " is not a directory");
            }
            dir = real;
        }
        return forWriting(path);
    }

    /** @return the content of {@code path} (see {@link #forReading(String)}) as UTF-8 */
    public String read(String path) throws IOException {
        return Files.readString(forReading(path), StandardCharsets.UTF_8);
    }

    /** Writes {@code content} as UTF-8 to {@code path} (see {@link #forWriting(String)}). */
    public void write(String path, String content) throws IOException {
        Files.writeString(forWriting(path), content, StandardCharsets.UTF_8);
    }

    /** @throws UnsafePathException for an empty, invalid or absolute path, or one with {@code ..} */
    static Path checkSyntax(String path) {
        if (path == null || path.isEmpty()) {
            throw new UnsafePathException("an empty path is not allowed; allowed: a relative path under the output directory");
        }
        Path p;
        try {
            p = Path.of(path);
        } catch (InvalidPathException e) {
            throw new UnsafePathException("path " + path + " is not a valid path: " + e.getReason());
        }
        if (p.isAbsolute() || path.startsWith("/") || path.startsWith("\\")) {
            throw new UnsafePathException("absolute path " + path + " is not allowed; allowed: a relative path under the output directory");
        }
        for (Path part : p) {
            if (part.toString().equals("..")) {
                throw new UnsafePathException("path " + path + " contains '..'; allowed: a relative path under the output directory");
            }
        }
        return p;
    }
}
