package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.PeerProtocols;
import io.linerate.core.spi.Transport;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Raw Ethernet frames through Linux AF_PACKET ({@link RawTransfer}), registered for
 * {@link java.util.ServiceLoader} under the name {@value #NAME}; it runs
 * {@link Pattern#RAW_FRAMES} alone. Constructing it does no I/O and never throws; the first call of
 * {@link #unavailabilityCause()} finds, in this order, whether the system is Linux, whether the
 * process holds CAP_NET_RAW (the effective capability set in {@code /proc/self/status}), and whether
 * the native library loads (packed in the jar and extracted, then {@code System.loadLibrary}) and
 * an AF_PACKET socket opens ({@link AfPacket#unavailabilityCause()}), and keeps the answer. A spec
 * whose endpoint is a peer on another host (linerate's agent, which drives the far interface) opens
 * through the {@link PeerProtocol} that reaches it ({@link PeerProtocols}, found on the class path:
 * {@code linerate-peers}), which runs this host's end on this transport.
 */
public final class AfPacketTransport implements Transport {
    /** The name this transport is found by. */
    public static final String NAME = "afpacket";

    private final Supplier<String> osName;
    private final Supplier<List<String>> procStatus;
    private final Supplier<Optional<String>> nativeCause;
    private volatile Optional<String> cause;

    /** The transport of this host: reads nothing until {@link #unavailabilityCause()} is called. */
    public AfPacketTransport() {
        this(() -> System.getProperty("os.name", ""), NetRawCapability::readStatus, AfPacket::unavailabilityCause);
    }

    /**
     * @param osName the {@code os.name} to judge
     * @param procStatus the lines of {@code /proc/self/status}
     * @param nativeCause why the native library or the AF_PACKET socket cannot be used
     */
    AfPacketTransport(Supplier<String> osName, Supplier<List<String>> procStatus, Supplier<Optional<String>> nativeCause) {
        this.osName = osName;
        this.procStatus = procStatus;
        this.nativeCause = nativeCause;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @return {@link Pattern#RAW_FRAMES} */
    @Override
    public Set<Pattern> patterns() {
        return EnumSet.of(Pattern.RAW_FRAMES);
    }

    /**
     * @return why raw frames cannot be sent here: not Linux (naming {@code os.name}), no CAP_NET_RAW
     *     (naming the effective capability set and the user), or the native library or the AF_PACKET
     *     socket failing (saying how loading was tried); empty when they can
     */
    @Override
    public Optional<String> unavailabilityCause() {
        Optional<String> c = cause;
        if (c == null) {
            synchronized (this) {
                c = cause;
                if (c == null) {
                    c = probe();
                    cause = c;
                }
            }
        }
        return c;
    }

    private Optional<String> probe() {
        String os = osName.get();
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return Optional.of("not Linux: os.name is '" + os + "'; AF_PACKET exists only on Linux");
        }
        Optional<String> noCap = NetRawCapability.missing(procStatus.get());
        if (noCap.isPresent()) {
            return noCap;
        }
        return nativeCause.get();
    }

    /**
     * @return why the spec cannot run here: another pattern, or a peer endpoint that no
     *     {@link PeerProtocol} on the class path reaches or whose protocol refuses the spec (its
     *     reason); empty for a raw-frame spec whose interfaces this JVM drives, or whose far end a
     *     peer's protocol runs
     */
    @Override
    public Optional<String> unsupportedReason(MeasurementSpec spec) {
        if (!(spec instanceof RawTransferSpec raw)) {
            return Optional.of("the afpacket transport runs " + Pattern.RAW_FRAMES.label() + ", not " + spec.pattern().label());
        }
        if (!(raw.endpoint() instanceof Endpoint.Loopback)) {
            Optional<PeerProtocol> peer = PeerProtocols.of(raw.endpoint());
            return peer.isEmpty() ? Optional.of(PeerProtocols.missing(raw.endpoint())) : peer.get().unsupportedReason(raw, this);
        }
        return Optional.empty();
    }

    /**
     * @return a {@link RawMeasurement} (see {@link #open(RawTransferSpec, Clock)}) for a spec whose
     *     interfaces this JVM drives; for a spec with a peer what its {@link PeerProtocol} opens,
     *     whose result holds both ends' counts
     * @throws IllegalArgumentException if {@link #unsupportedReason} is not empty for the spec
     * @throws TransferException when this host cannot send raw frames, or the peer cannot be reached
     */
    @Override
    public Measurement open(MeasurementSpec spec, Clock clock) throws TransferException {
        Objects.requireNonNull(spec, "spec");
        Optional<String> reason = unsupportedReason(spec);
        if (reason.isPresent()) {
            throw new IllegalArgumentException(reason.get());
        }
        if (!(spec.endpoint() instanceof Endpoint.Loopback)) {
            Objects.requireNonNull(clock, "clock");
            checkAvailable();
            PeerProtocol peer = PeerProtocols.of(spec.endpoint())
                    .orElseThrow(() -> new IllegalArgumentException(PeerProtocols.missing(spec.endpoint())));
            return peer.open(spec, clock, this);
        }
        return open((RawTransferSpec) spec, clock);
    }

    /**
     * Opens a raw transfer. Nothing is set up until it runs: the interfaces are checked and the
     * rings opened by {@link RawMeasurement#run()}.
     *
     * @param spec what to send
     * @param clock the time source of every reading
     * @return the measurement, whose {@code run()} gives a {@link RawResult}
     * @throws TransferException when this host cannot send raw frames ({@link #unavailabilityCause()});
     *     a missing CAP_NET_RAW is a usage error
     * @throws IllegalArgumentException if the spec names a peer endpoint (open it through
     *     {@link #open(MeasurementSpec, Clock)}, which hands it to the peer's protocol)
     */
    public RawMeasurement open(RawTransferSpec spec, Clock clock) throws TransferException {
        Objects.requireNonNull(clock, "clock");
        if (!(spec.endpoint() instanceof Endpoint.Loopback)) {
            throw new IllegalArgumentException("peer " + spec.endpoint() + ": this host's interfaces alone run as a "
                    + "RawMeasurement; a run with a peer opens through open(MeasurementSpec, Clock), which hands it to "
                    + "the peer's protocol");
        }
        Optional<String> reason = unsupportedReason(spec);
        if (reason.isPresent()) {
            throw new IllegalArgumentException(reason.get());
        }
        checkAvailable();
        return new RawMeasurement(spec, clock);
    }

    /** @throws TransferException naming {@link #unavailabilityCause()}; a missing CAP_NET_RAW is a usage error */
    private void checkAvailable() throws TransferException {
        Optional<String> why = unavailabilityCause();
        if (why.isPresent()) {
            throw new TransferException("AF_PACKET is not available: " + why.get(), null, why.get().contains("CAP_NET_RAW"));
        }
    }
}
