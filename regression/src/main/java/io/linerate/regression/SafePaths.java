package io.linerate.regression;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * File access confined to a base directory (METRICS-SPEC section 8). A path is accepted only when
 * it is relative, has no {@code ..} element, and resolves under the base directory after every
 * symbolic link is followed: for reading the file itself, for writing its parent directory and,
 * when it exists, the file itself. Everything else is refused with an {@link UnsafePathException}
 * naming the path.
 */
public final class SafePaths {
    private final Path base;

    /**
     * @param baseDir the directory every path must stay under
     * @throws UnsafePathException when it does not exist or is not a directory
     */
    public SafePaths(Path baseDir) {
        try {
            this.base = baseDir.toRealPath();
        } catch (IOException e) {
            throw new UnsafePathException("base directory " + baseDir + " does not exist");
        }
        if (!Files.isDirectory(base)) {
            throw new UnsafePathException("base directory " + baseDir + " is not a directory");
        }
    }

    /** Thrown for a path outside the base directory, absolute, with {@code ..}, or unreadable. */
    public static final class UnsafePathException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** @param message names the path and why it is refused */
        public UnsafePathException(String message) {
            super(message);
        }
    }

    /** @return the real base directory */
    public Path base() {
        return base;
    }

    /**
     * @param path a relative path
     * @return the real path of an existing file under the base directory
     * @throws UnsafePathException when the path is refused or the file does not exist
     */
    public Path forReading(String path) {
        Path p = checkSyntax(path);
        Path resolved = base.resolve(p);
        Path real;
        try {
            real = resolved.toRealPath();
        } catch (IOException e) {
            throw new UnsafePathException("path " + path + " does not exist under the base directory");
        }
        if (!real.startsWith(base)) {
            throw new UnsafePathException("path " + path + " resolves outside the base directory (links to " + real + ")");
        }
        if (!Files.isRegularFile(real)) {
            throw new UnsafePathException("path " + path + " is not a regular file");
        }
        return real;
    }

    /**
     * @param path a relative path whose parent directory exists
     * @return the path to write, under the base directory
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
            throw new UnsafePathException("path " + path + ": its directory does not exist under the base directory");
        }
        if (!realParent.startsWith(base)) {
            throw new UnsafePathException("path " + path + " resolves outside the base directory (its directory links to "
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
                throw new UnsafePathException("path " + path + " resolves outside the base directory (links to " + real + ")");
            }
            if (Files.isDirectory(real)) {
                throw new UnsafePathException("path " + path + " is a directory");
            }
            return real;
        }
        return target;
    }

    /** @return the content of {@code path} (see {@link #forReading(String)}) as UTF-8 */
    public String read(String path) throws IOException {
        return Files.readString(forReading(path), StandardCharsets.UTF_8);
    }

    /** Writes {@code content} as UTF-8 to {@code path} (see {@link #forWriting(String)}). */
    public void write(String path, String content) throws IOException {
        Files.writeString(forWriting(path), content, StandardCharsets.UTF_8);
    }

    private static Path checkSyntax(String path) {
        if (path == null || path.isEmpty()) {
            throw new UnsafePathException("an empty path is not allowed; allowed: a relative path under the base directory");
        }
        Path p;
        try {
            p = Path.of(path);
        } catch (InvalidPathException e) {
            throw new UnsafePathException("path " + path + " is not a valid path: " + e.getReason());
        }
        if (p.isAbsolute() || path.startsWith("/") || path.startsWith("\\")) {
            throw new UnsafePathException("absolute path " + path + " is not allowed; allowed: a relative path under the base directory");
        }
        for (Path part : p) {
            if (part.toString().equals("..")) {
                throw new UnsafePathException("path " + path + " contains '..'; allowed: a relative path under the base directory");
            }
        }
        return p;
    }
}
