package io.linerate.examples.cli;

import io.linerate.core.Runs;
import picocli.CommandLine.Option;

/** {@code --repeat N} of a measuring command, as {@code loopback --repeat} has it; a picocli mixin. */
final class RepeatOption {
    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "Runs, one after the other, each a result of its own (a KTAP test; with --json a line "
                    + "with its run index), for the gate's distributions: 1.." + Runs.MAX_REPEAT
                    + " (default: ${DEFAULT-VALUE}).")
    int repeat;

    /**
     * @return the runs asked for
     * @throws IllegalArgumentException naming the value and the allowed range, 1..{@value Runs#MAX_REPEAT}
     */
    int runs() {
        if (repeat < 1 || repeat > Runs.MAX_REPEAT) {
            throw new IllegalArgumentException("--repeat " + repeat + " is out of range; allowed: 1.." + Runs.MAX_REPEAT);
        }
        return repeat;
    }
}
