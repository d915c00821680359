package io.linerate.examples.cli;

import io.linerate.core.live.LiveCounters;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Runs a command that moves traffic (one with {@code --counters-dir}, other than {@code stat})
 * inside a live-counters session: the counters file goes to the chosen directory, stays open for
 * the whole command (so a suite keeps one file and stale files are removed at its start), and a
 * progress line is drawn on stderr when stderr is a terminal. Other commands run as they are.
 */
final class LiveSession implements CommandLine.IExecutionStrategy {
    private final CommandLine.IExecutionStrategy next = new CommandLine.RunLast();

    @Override
    public int execute(ParseResult parseResult) {
        ParseResult leaf = parseResult;
        while (leaf.subcommand() != null) {
            leaf = leaf.subcommand();
        }
        if (leaf.commandSpec().findOption(CountersOptions.NAME) == null
                || leaf.commandSpec().userObject() instanceof StatCommand
                || leaf.isUsageHelpRequested() || leaf.isVersionHelpRequested()) {
            return next.execute(parseResult);
        }
        Path dir = leaf.matchedOptionValue(CountersOptions.NAME, null);
        LiveCounters live = LiveCounters.process();
        live.directory(dir);
        CommandLine root = parseResult.commandSpec().commandLine();
        Optional<ProgressLine> progress = ProgressLine.startIfTerminal(root.getOut(), root.getErr());
        progress.ifPresent(p -> {
            root.setOut(p.out());
            root.setErr(p.err());
        });
        try (LiveCounters.Hold hold = live.hold()) {
            return next.execute(parseResult);
        } finally {
            progress.ifPresent(ProgressLine::close);
            live.directory(null);
        }
    }
}
