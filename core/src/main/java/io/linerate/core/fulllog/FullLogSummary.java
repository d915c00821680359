package io.linerate.core.fulllog;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link FullLog} wrote.
 *
 * @param file the file, as given
 * @param entries entries written to the file
 * @param dropped entries recorded but not written: the writer had fallen behind and no empty
 *     record was free when they came, or writing failed ({@code failure} says why); so
 *     {@code entries + dropped} is every entry recorded
 * @param failure why the log is incomplete beyond drops (a write error, a writer that did not
 *     finish in time), or empty
 */
public record FullLogSummary(String file, long entries, long dropped, Optional<String> failure) {
    /** @throws IllegalArgumentException if a count is negative */
    public FullLogSummary {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(failure, "failure");
        if (entries < 0 || dropped < 0) {
            throw new IllegalArgumentException("full log counts must not be negative: " + entries + " entries, "
                    + dropped + " dropped");
        }
    }

    /** @return every entry recorded: {@code entries + dropped} */
    public long recorded() {
        return entries + dropped;
    }

    /** @return one line for people: {@code full log FILE: N entries written, M dropped[; failure]} */
    public String describe() {
        return String.format(Locale.ROOT, "full log %s: %d entries written, %d dropped%s", file, entries, dropped,
                failure.map(f -> "; " + f).orElse(""));
    }
}
