package io.linerate.examples.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** Options the latency commands ({@code pingpong}, {@code rr}) share; a picocli mixin. */
final class LatencyOptions {
    @Option(names = "--family", paramLabel = "4|6", description = "Address family of tcp and udp (default: the --peer address literal's, else 4).")
    String family;

    @Option(names = "--nodelay", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "TCP_NODELAY on both ends (default: on; --no-nodelay turns it off).")
    boolean noDelay;

    @Option(names = "--timeout", defaultValue = "2s", converter = Converters.DurationConverter.class,
            description = "Bound of every single wait; pingpong bounds each whole round trip, and an answer there only after it "
                    + "fails the run (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--percentile", defaultValue = "99", paramLabel = "P", description = "Percentile reported, in (0, 100] (default: ${DEFAULT-VALUE}).")
    double percentile;
}
