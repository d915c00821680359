package io.linerate.regression;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Reads and writes the files a gate needs, at the paths the user gave (docs/metrics.md section 8): a
 * path typed on the command line or passed to this API is used as given, absolute or relative,
 * {@code ..} included. (File names derived from input data go through {@link SafePaths} instead.)
 * Each input is read with the first {@link MetricReaders built-in reader} that accepts it, with the
 * path as given as its source name and default run id, so several inputs are several runs. A
 * baseline is never overwritten unless the caller says so.
 */
public final class GateFiles {
    private GateFiles() {}

    /** Largest input, baseline or policy file read, bytes (256 MiB): larger ones are refused, not read into memory. */
    public static final long MAX_INPUT_BYTES = 256L << 20;

    /**
     * @param inputs the inputs, at least one
     * @return everything read; line-level problems are in {@link MetricSet#errors()}
     * @throws IllegalArgumentException for no inputs, or an input that does not exist, is a
     *     directory, a pipe or a device, or holds more than {@link #MAX_INPUT_BYTES}
     * @throws IOException when a file cannot be read
     */
    public static MetricSet readInputs(List<Path> inputs) throws IOException {
        if (inputs == null || inputs.isEmpty()) {
            throw new IllegalArgumentException("no input given; allowed: one or more files");
        }
        MetricSet all = new MetricSet();
        for (Path in : inputs) {
            all.addAll(MetricReaders.read(in.toString(), read("input", in)));
        }
        return all;
    }

    /**
     * @return the baseline at {@code path}
     * @throws IllegalArgumentException for a missing file, invalid JSON, another format or version
     * @throws IOException when the file cannot be read
     */
    public static Baseline readBaseline(Path path) throws IOException {
        return Baseline.parse(path.toString(), read("baseline", path));
    }

    /**
     * @return the reviewed policies at {@code path}, or {@link Policies#none()} when {@code path} is null
     * @throws IllegalArgumentException for a missing file or a bad policy (unknown keys included)
     * @throws IOException when the file cannot be read
     */
    public static Policies readPolicies(Path path) throws IOException {
        return path == null ? Policies.none() : Policies.parseFile(path.toString(), read("policy file", path));
    }

    /**
     * Writes a report (KTAP, JSON, Markdown, SVG) as UTF-8, replacing an existing file.
     *
     * @throws IOException when it cannot be written
     */
    public static void writeReport(Path path, String content) throws IOException {
        Files.writeString(path, content, StandardCharsets.UTF_8);
    }

    /**
     * Writes {@code baseline} to {@code path}. Without {@code overwrite} an existing file is kept
     * and {@link FileAlreadyExistsException} thrown (the check and the creation are one atomic
     * step); with it the file is replaced through a temporary file in the same directory, so a
     * reader never sees half a baseline.
     *
     * @param path where, as given
     * @param baseline what
     * @param overwrite whether an existing baseline may be replaced
     * @throws FileAlreadyExistsException when the file exists and {@code overwrite} is false
     * @throws IOException when it cannot be written
     */
    public static void writeBaseline(Path path, Baseline baseline, boolean overwrite) throws IOException {
        String json = baseline.toJson();
        if (!overwrite) {
            try {
                Files.writeString(path, json, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                throw new FileAlreadyExistsException(path.toString(), null,
                        "a baseline exists there and is only replaced on purpose (overwrite)");
            }
            return;
        }
        if (Files.exists(path) && !Files.isRegularFile(path)) {
            throw new IllegalArgumentException("baseline " + path + " is not a regular file (a directory, device or"
                    + " pipe); allowed: a regular file, which --force replaces");
        }
        // a link is written through: the file it names is replaced, not the link
        Path target = Files.exists(path) ? path.toRealPath() : path;
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, json, StandardCharsets.UTF_8);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String read(String what, Path path) throws IOException {
        if (!Files.exists(path)) {
            throw new IllegalArgumentException(what + " " + path + " does not exist");
        }
        if (Files.isDirectory(path)) {
            throw new IllegalArgumentException(what + " " + path + " is a directory; allowed: a file");
        }
        if (!Files.isRegularFile(path)) {
            // a pipe or a device could block for ever or never end
            throw new IllegalArgumentException(what + " " + path + " is not a regular file (a pipe or device); allowed: a file");
        }
        long size = Files.size(path);
        if (size > MAX_INPUT_BYTES) {
            throw new IllegalArgumentException(what + " " + path + " holds " + size + " bytes; allowed: at most "
                    + MAX_INPUT_BYTES + " (256 MiB)");
        }
        // a stray byte that is not UTF-8 (a degree sign from a Latin-1 console) cannot be part of a
        // metric line; it is read as U+FFFD rather than failing the whole file
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(Files.readAllBytes(path))).toString();
    }
}
