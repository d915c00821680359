package io.linerate.examples.cli;

import io.linerate.core.live.ProcessCounters;
import java.nio.file.Path;
import java.util.List;

/**
 * What the progress line ({@link ProgressLine}) says at one moment: from this process's live
 * counters as read then, and what the command has told the view itself. A view is read by the
 * progress line's thread and written by the command's; it never runs on a transfer's hot path.
 */
@FunctionalInterface
interface ProgressView {
    /** The live counters alone: {@link LiveFormat#progressLine}, the progress reports and the latest transfer. */
    ProgressView COUNTERS = (counters, nowMillis) -> LiveFormat.progressLine(counters, nowMillis, Integer.MAX_VALUE);

    /**
     * @param counters this process's live counters as read now; no groups when there is no counters file
     * @param nowMillis the wall clock when they were read, ms since the epoch
     * @return the line, not yet cut to the terminal's width; empty for nothing to show
     */
    String line(ProcessCounters counters, long nowMillis);

    /**
     * @param nowMillis the wall clock, ms since the epoch
     * @return the counters of a process that has no counters file: no groups
     */
    static ProcessCounters noCounters(long nowMillis) {
        return new ProcessCounters(Path.of(""), ProcessHandle.current().pid(), -1, nowMillis, nowMillis, List.of());
    }

    /** @return {@code head}, then {@code " | "} and {@code tail} when there is a tail */
    static String join(String head, String tail) {
        return tail.isEmpty() ? head : head + " | " + tail;
    }
}
