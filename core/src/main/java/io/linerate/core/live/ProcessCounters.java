package io.linerate.core.live;

import java.nio.file.Path;
import java.util.List;

/**
 * One process's counters file as read at one moment.
 *
 * @param file the file read
 * @param pid the owning process
 * @param processStartMillis when the owning process started, ms since the epoch; -1 when unknown
 * @param createdMillis when the file was created, ms since the epoch
 * @param heartbeatMillis when the owner last published a value, ms since the epoch
 * @param groups the transfers and progress reports registered at that moment, by group id
 */
public record ProcessCounters(Path file, long pid, long processStartMillis, long createdMillis,
                              long heartbeatMillis, List<CounterGroup> groups) {
    /** Copies the groups. */
    public ProcessCounters {
        groups = List.copyOf(groups);
    }
}
