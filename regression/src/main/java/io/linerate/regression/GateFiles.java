package io.linerate.regression;

import java.io.IOException;
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

    /**
     * @param inputs the inputs, at least one
     * @return everything read; line-level problems are in {@link MetricSet#errors()}
     * @throws IllegalArgumentException for no inputs, or an input that does not exist or is a directory
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
        Path dir = path.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + path.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, json, StandardCharsets.UTF_8);
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
        return Files.readString(path, StandardCharsets.UTF_8);
    }
}
