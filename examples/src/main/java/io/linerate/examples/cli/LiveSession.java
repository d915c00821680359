package io.linerate.examples.cli;

import io.linerate.core.live.LiveCounters;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Runs a command that moves traffic inside a live-counters session, with a progress line on stderr
 * when stderr is a terminal ({@link ProgressLine}). A command with {@code --counters-dir} (other than
 * {@code stat}) has its counters file in the chosen directory, open for the whole command (so a
 * suite keeps one file and stale files are removed at its start); a command that
 * {@linkplain ReportsProgress reports its progress} has the line say what it tells. Other commands
 * run as they are.
 */
final class LiveSession implements CommandLine.IExecutionStrategy {
    private final CommandLine.IExecutionStrategy next = new CommandLine.RunLast();

    @Override
    public int execute(ParseResult parseResult) {
        ParseResult leaf = parseResult;
        while (leaf.subcommand() != null) {
            leaf = leaf.subcommand();
        }
        Object command = leaf.commandSpec().userObject();
        boolean counters = leaf.commandSpec().findOption(CountersOptions.NAME) != null && !(command instanceof StatCommand);
        if (!(counters || command instanceof ReportsProgress) || leaf.isUsageHelpRequested()
                || leaf.isVersionHelpRequested()) {
            return next.execute(parseResult);
        }
        Supplier<ProgressView> view = command instanceof ReportsProgress r ? r::progressView : () -> ProgressView.COUNTERS;
        CommandLine root = parseResult.commandSpec().commandLine();
        Optional<ProgressLine> progress = ProgressLine.startIfTerminal(root.getOut(), root.getErr(), view);
        progress.ifPresent(p -> {
            root.setOut(p.out());
            root.setErr(p.err());
        });
        LiveCounters live = LiveCounters.process();
        try {
            if (!counters) {
                return next.execute(parseResult);
            }
            Path dir = leaf.matchedOptionValue(CountersOptions.NAME, null);
            if (dir != null) {
                CountersOptions.check(leaf.commandSpec().commandLine(), dir);
            }
            live.directory(dir);
            try (LiveCounters.Hold hold = live.hold()) {
                return next.execute(parseResult);
            } finally {
                live.directory(null);
            }
        } finally {
            progress.ifPresent(ProgressLine::close);
        }
    }
}
