package io.linerate.examples.cli;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.Transport;
import java.util.List;
import java.util.Optional;

/**
 * A third-party transport as a separate jar would register it: it "moves" exactly
 * {@value #WINDOW_BYTES} bytes in a one-second window without touching the network, so every
 * figure the CLI prints from it is known in advance.
 */
public final class FakeTransport implements Transport {
    /** Bytes sent and received inside the one-second window: 10 Mbit/s. */
    static final long WINDOW_BYTES = 1_250_000;

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public Optional<String> unsupportedReason(MeasurementSpec spec) {
        return Optional.empty();
    }

    @Override
    public Transfer open(MeasurementSpec measurementSpec, Clock clock) {
        TransferSpec spec = (TransferSpec) measurementSpec;
        return new Transfer() {
            @Override
            public TransferSpec spec() {
                return spec;
            }

            @Override
            public TransferResult run(IntervalListener listener) {
                AppliedOptions options = new AppliedOptions(spec.trafficClass(), spec.trafficClass(), 0, 0, 0, 0, false, false);
                return TransferResult.builder(spec).bytesSent(WINDOW_BYTES).messagesSent(1).bytesReceived(WINDOW_BYTES)
                        .window(0, 1_000_000_000L).windowBytesSent(WINDOW_BYTES)
                        .windowBytesReceived(WINDOW_BYTES).options(options).senderCpuNanos(0)
                        .receiverCpuNanos(0).senderAllocatedBytes(-1).receiverAllocatedBytes(-1)
                        .build();
            }

            @Override
            public void close() {}
        };
    }
}
