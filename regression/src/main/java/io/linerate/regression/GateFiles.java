package io.linerate.regression;

import java.io.IOException;
import java.util.List;

/**
 * Reads the files a gate needs through {@link SafePaths}, so that every path is confined to the
 * base directory. Each input is read with the first {@link MetricReaders built-in reader} that
 * accepts it, with the path as given as its source name and default run id (so several inputs are
 * several runs).
 */
public final class GateFiles {
    private GateFiles() {}

    /**
     * @param paths where files may be
     * @param inputs relative paths of the inputs, at least one
     * @return everything read; line-level problems are in {@link MetricSet#errors()}
     * @throws IllegalArgumentException for an unsafe or missing path, or no inputs
     * @throws IOException when a file cannot be read
     */
    public static MetricSet readInputs(SafePaths paths, List<String> inputs) throws IOException {
        if (inputs == null || inputs.isEmpty()) {
            throw new IllegalArgumentException("no input given; allowed: one or more files");
        }
        MetricSet all = new MetricSet();
        for (String in : inputs) {
            all.addAll(MetricReaders.read(in, paths.read(in)));
        }
        return all;
    }

    /**
     * @return the baseline at {@code path}
     * @throws IllegalArgumentException for an unsafe path, invalid JSON, another format or version
     * @throws IOException when the file cannot be read
     */
    public static Baseline readBaseline(SafePaths paths, String path) throws IOException {
        return Baseline.parse(path, paths.read(path));
    }

    /**
     * @return the reviewed policies at {@code path}, or {@link Policies#none()} when {@code path} is null
     * @throws IllegalArgumentException for an unsafe path or a bad policy (unknown keys included)
     * @throws IOException when the file cannot be read
     */
    public static Policies readPolicies(SafePaths paths, String path) throws IOException {
        return path == null ? Policies.none() : Policies.parseFile(path, paths.read(path));
    }
}
