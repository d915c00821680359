package io.linerate.examples.cli;

import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every traffic-moving command shares; a picocli mixin. */
final class TransferOptions {
    @Option(names = "--warmup", defaultValue = "250ms", converter = Converters.DurationConverter.class,
            description = "Time before each measured window, left out of it (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--interval", defaultValue = "1s", converter = Converters.DurationConverter.class,
            description = "Interval sample length (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class, paramLabel = "BIT/S",
            description = "Target rate in bit/s, decimal k/m/g/t suffixes in any case (2.5G, 100m = 100 Mbit/s); "
                    + "0 = unlimited (default); a non-zero rate below 1 bit/s is refused.")
    long rate;

    @Option(names = "--port", defaultValue = "0", description = "Receiver port; 0 = ephemeral (default).")
    int port;

    @Option(names = "--tclass", defaultValue = "0x20", converter = Converters.ByteConverter.class,
            description = "IP_TOS / IPv6 traffic class of every upload (default: ${DEFAULT-VALUE}, DSCP CS1).")
    int trafficClass;

    @Option(names = "--io-timeout", defaultValue = "5s", converter = Converters.DurationConverter.class,
            description = "Bound on every blocking wait (default: ${DEFAULT-VALUE}).")
    Duration ioTimeout;

    @Mixin
    OutputOptions output;

    @Mixin
    CountersOptions counters;

    /** @return the output format, from {@code --format} or one of its shorthands */
    OutputFormat outputFormat() {
        return output.format();
    }
}
