package io.linerate.core.fake;

import io.linerate.core.Clock;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.Transport;
import java.util.Optional;

/** Transport providers registered in this module's test class path to exercise discovery. */
public final class FakeTransports {
    private FakeTransports() {}

    /** Supports UDP only; never opened by the discovery tests. */
    public static final class UdpOnly implements Transport {
        @Override
        public String name() {
            return "fake-udp";
        }

        @Override
        public Optional<String> unsupportedReason(MeasurementSpec spec) {
            return spec instanceof TransferSpec t && t.protocol() == Protocol.UDP ? Optional.empty() : Optional.of("fake-udp moves UDP only");
        }

        @Override
        public Transfer open(MeasurementSpec spec, Clock clock) {
            throw new IllegalStateException("discovery tests never open a transfer");
        }
    }

    /** Supports everything but is unavailable on every host, as a transport missing a privilege. */
    public static final class Unavailable implements Transport {
        @Override
        public String name() {
            return "fake-unavailable";
        }

        @Override
        public Optional<String> unavailabilityCause() {
            return Optional.of("needs a privilege this host lacks");
        }

        @Override
        public Optional<String> unsupportedReason(MeasurementSpec spec) {
            return Optional.empty();
        }

        @Override
        public Transfer open(MeasurementSpec spec, Clock clock) {
            throw new IllegalStateException("discovery tests never open a transfer");
        }
    }

    /** A provider whose constructor throws, as one whose native library fails to load. */
    public static final class Throwing implements Transport {
        /** Always throws. */
        public Throwing() {
            throw new IllegalStateException("broken on purpose");
        }

        @Override
        public String name() {
            return "fake-throwing";
        }

        @Override
        public Optional<String> unsupportedReason(MeasurementSpec spec) {
            return Optional.empty();
        }

        @Override
        public Transfer open(MeasurementSpec spec, Clock clock) {
            throw new IllegalStateException("never constructed");
        }
    }
}
