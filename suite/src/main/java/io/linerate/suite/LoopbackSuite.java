package io.linerate.suite;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Pattern;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.RunProgress;
import io.linerate.core.spi.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * zperf's loopback suite: for each address family a UDP stream, a UDP stream of datagrams larger
 * than the loopback MTU (so the stack fragments and reassembles them), a TCP stream and a TCP
 * stream with TCP_NODELAY, every upload at a non-default traffic class.
 *
 * <p>A {@code *_frag} marker only runs where the loopback MTU is below its datagram size (payload +
 * IP and UDP headers); elsewhere it is reported as {@link Outcome.Skipped} with that reason, never
 * run without fragmenting. The host's loopback MTU is 65536, so fragmenting markers run inside a
 * {@link io.linerate.netns.NetworkNamespace} whose loopback has MTU {@value #FRAG_LOOPBACK_MTU}, zperf's
 * configuration. A fragmenting run whose stack created no fragments is reported invalid.
 *
 * <p>Each TCP marker writes one full segment of its family where the family's loopback MSS is
 * below twice zperf's 1220 bytes, and zperf's 1220 bytes elsewhere ({@link LoopbackTcpPayload#of},
 * from the loopback MSS the caller derives for its transport; the CLI derives it with
 * transport-nio's {@code PathFacts}): at the namespace's MTU of 1280 with TCP timestamps, 1228
 * bytes over IPv4 and 1208 over IPv6; on the host's loopback (MTU 65536) 1220 in both. A
 * {@link Config} that names no TCP payload writes zperf's 1220 bytes ({@link LoopbackTcpPayload#zperf()}).
 *
 * <p>While it runs, the suite's progress (transfers done of transfers in all) is in the process's
 * {@linkplain LiveCounters live counters}, beside each transfer's own counters.
 */
public final class LoopbackSuite {
    /** The loopback MTU of zperf's fragmentation configuration, bytes. */
    public static final int FRAG_LOOPBACK_MTU = 1280;
    /** zperf's payload of the fragmenting UDP markers, bytes. */
    public static final int DEFAULT_FRAG_PAYLOAD_BYTES = 2000;
    /** zperf's payload of the udp and tcp markers, bytes. */
    public static final int ZPERF_PAYLOAD_BYTES = TransferSpec.DEFAULT_PAYLOAD_BYTES;

    /** One transfer of the suite, named as zperf names its result lines. */
    public enum Marker {
        UDP4(Protocol.UDP, AddressFamily.IPV4, false, false),
        UDP4_FRAG(Protocol.UDP, AddressFamily.IPV4, false, true),
        TCP4(Protocol.TCP, AddressFamily.IPV4, false, false),
        TCP4_NODELAY(Protocol.TCP, AddressFamily.IPV4, true, false),
        UDP6(Protocol.UDP, AddressFamily.IPV6, false, false),
        UDP6_FRAG(Protocol.UDP, AddressFamily.IPV6, false, true),
        TCP6(Protocol.TCP, AddressFamily.IPV6, false, false),
        TCP6_NODELAY(Protocol.TCP, AddressFamily.IPV6, true, false);

        private final Protocol protocol;
        private final AddressFamily family;
        private final boolean noDelay;
        private final boolean fragmenting;

        Marker(Protocol protocol, AddressFamily family, boolean noDelay, boolean fragmenting) {
            this.protocol = protocol;
            this.family = family;
            this.noDelay = noDelay;
            this.fragmenting = fragmenting;
        }

        /** @return the marker as printed: {@code udp4}, {@code udp6_frag}, {@code tcp4_nodelay}, ... */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public Protocol protocol() {
            return protocol;
        }

        public AddressFamily family() {
            return family;
        }

        public boolean noDelay() {
            return noDelay;
        }

        /** @return whether this marker's datagrams must be fragmented */
        public boolean fragmenting() {
            return fragmenting;
        }

        /**
         * @param text a marker label such as {@code tcp6_nodelay}, any case
         * @throws IllegalArgumentException naming the value and the allowed markers
         */
        public static Marker parse(String text) {
            for (Marker m : values()) {
                if (m.label().equalsIgnoreCase(text.strip())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown marker '" + text + "'; allowed: "
                    + String.join(", ", Arrays.stream(values()).map(Marker::label).toList()));
        }
    }

    /**
     * How to run the suite. Build one with {@link #builder()}, which starts from
     * {@link #defaults()}: the record has twelve components, several of the same type, that a
     * positional call could swap unnoticed.
     *
     * @param markers which transfers, in order; each runs {@code repeat} times (rounds of all markers)
     * @param duration measured window of each transfer
     * @param warmup omitted before each window
     * @param interval interval sample length
     * @param payloadBytes payload of the udp markers (zperf: 1220)
     * @param tcpPayload payload of the tcp markers, per family ({@link LoopbackTcpPayload#zperf()} by default)
     * @param fragPayloadBytes payload of the {@code *_frag} markers (zperf: 2000)
     * @param rateBitsPerSecond target rate, 0 = unlimited
     * @param port receiver port, 0 for ephemeral
     * @param repeat runs per marker, at least 1
     * @param trafficClass TOS / traffic class of every upload
     * @param ioTimeout bound on every blocking wait
     */
    public record Config(List<Marker> markers, Duration duration, Duration warmup, Duration interval,
                         int payloadBytes, LoopbackTcpPayload tcpPayload, int fragPayloadBytes, long rateBitsPerSecond,
                         int port, int repeat, int trafficClass, Duration ioTimeout) {
        /** @throws IllegalArgumentException for an empty marker list or a repeat below 1 */
        public Config {
            markers = List.copyOf(markers);
            Objects.requireNonNull(duration, "duration");
            Objects.requireNonNull(tcpPayload, "tcpPayload");
            if (markers.isEmpty()) {
                throw new IllegalArgumentException("no markers selected; allowed: any of "
                        + String.join(", ", Arrays.stream(Marker.values()).map(Marker::label).toList()));
            }
            if (repeat < 1 || repeat > 10_000) {
                throw new IllegalArgumentException("repeat " + repeat + " is out of range; allowed: 1..10000");
            }
        }

        /**
         * zperf's defaults: all eight markers, 1220/2000-byte payloads, unlimited rate, 2 s each; the
         * tcp markers' payload is {@link LoopbackTcpPayload#zperf()}.
         */
        public static Config defaults() {
            return builder().build();
        }

        /**
         * @return a builder holding zperf's defaults: all eight markers, 2 s measured after 250 ms
         *     of warm-up, 1 s intervals, udp payload 1220 B, tcp payload
         *     {@link LoopbackTcpPayload#zperf()} (1220 B), frag payload 2000 B, unlimited rate, ephemeral port, one run,
         *     traffic class {@value TransferSpec#DEFAULT_TRAFFIC_CLASS}, 5 s I/O timeout
         */
        public static Builder builder() {
            return new Builder();
        }

        /** Builds a {@link Config}; defaults as in {@link Config#builder()}. */
        public static final class Builder {
            private List<Marker> markers = List.of(Marker.values());
            private Duration duration = Duration.ofSeconds(2);
            private Duration warmup = Duration.ofMillis(250);
            private Duration interval = Duration.ofSeconds(1);
            private int payloadBytes = ZPERF_PAYLOAD_BYTES;
            private LoopbackTcpPayload tcpPayload;
            private int fragPayloadBytes = DEFAULT_FRAG_PAYLOAD_BYTES;
            private long rateBitsPerSecond;
            private int port;
            private int repeat = 1;
            private int trafficClass = TransferSpec.DEFAULT_TRAFFIC_CLASS;
            private Duration ioTimeout = Duration.ofSeconds(5);

            private Builder() {}

            /** @param v which transfers, in order; default all eight */
            public Builder markers(List<Marker> v) { markers = v; return this; }
            /** @param v measured window of each transfer; default 2 s */
            public Builder duration(Duration v) { duration = v; return this; }
            /** @param v omitted before each window; default 250 ms */
            public Builder warmup(Duration v) { warmup = v; return this; }
            /** @param v interval sample length; default 1 s */
            public Builder interval(Duration v) { interval = v; return this; }
            /** @param v payload of the udp markers, bytes; default 1220 (zperf's) */
            public Builder payloadBytes(int v) { payloadBytes = v; return this; }
            /** @param v payload of every tcp marker, bytes, in both families; default {@link LoopbackTcpPayload#zperf()} */
            public Builder tcpPayloadBytes(int v) { tcpPayload = LoopbackTcpPayload.given(v); return this; }
            /** @param v payload of the tcp markers, per family; default {@link LoopbackTcpPayload#zperf()} */
            public Builder tcpPayload(LoopbackTcpPayload v) { tcpPayload = v; return this; }
            /** @param v payload of the {@code *_frag} markers, bytes; default 2000 (zperf's) */
            public Builder fragPayloadBytes(int v) { fragPayloadBytes = v; return this; }
            /** @param v target rate in bit/s, 0 = unlimited (the default) */
            public Builder rateBitsPerSecond(long v) { rateBitsPerSecond = v; return this; }
            /** @param v receiver port, 0 for ephemeral (the default) */
            public Builder port(int v) { port = v; return this; }
            /** @param v runs per marker, 1..10000; default 1 */
            public Builder repeat(int v) { repeat = v; return this; }
            /** @param v TOS / traffic class of every upload; default {@value TransferSpec#DEFAULT_TRAFFIC_CLASS} */
            public Builder trafficClass(int v) { trafficClass = v; return this; }
            /** @param v bound on every blocking wait; default 5 s */
            public Builder ioTimeout(Duration v) { ioTimeout = v; return this; }

            /** @throws IllegalArgumentException as {@link Config#Config} */
            public Config build() {
                return new Config(markers, duration, warmup, interval, payloadBytes,
                        tcpPayload != null ? tcpPayload : LoopbackTcpPayload.zperf(), fragPayloadBytes,
                        rateBitsPerSecond, port, repeat, trafficClass, ioTimeout);
            }
        }

        /**
         * @return the spec of one marker's transfer
         * @throws IllegalArgumentException if a value is out of range for that marker
         */
        public TransferSpec spec(Marker m) {
            try {
                return buildSpec(m);
            } catch (IllegalArgumentException e) {
                // name the option at fault: the *_frag markers take their payload from fragPayloadBytes
                throw m.fragmenting() && e.getMessage().startsWith("payload ")
                        ? new IllegalArgumentException("frag " + e.getMessage(), e) : e;
            }
        }

        private TransferSpec buildSpec(Marker m) {
            return TransferSpec.builder()
                    .protocol(m.protocol())
                    .family(m.family())
                    .noDelay(m.noDelay())
                    .payloadBytes(m.fragmenting() ? fragPayloadBytes
                            : m.protocol() == Protocol.TCP ? tcpPayload.bytes(m.family()) : payloadBytes)
                    .bound(Bound.duration(duration))
                    .warmup(warmup)
                    .interval(interval)
                    .rateBitsPerSecond(rateBitsPerSecond)
                    .port(port)
                    .trafficClass(trafficClass)
                    .ioTimeout(ioTimeout)
                    .build();
        }

        /** Validates every selected marker's spec now, so bad input fails before any traffic. */
        public void validate() {
            markers.forEach(this::spec);
        }
    }

    /** What became of one marker run. */
    public sealed interface Outcome permits Outcome.Completed, Outcome.Skipped, Outcome.Failed {
        Marker marker();

        /** @return 1-based run number of this marker */
        int run();

        /**
         * @param result the transfer's counters
         * @param fragmentsCreated IP fragments the stack created during a {@code *_frag} run; empty
         *     for other markers or where the counters cannot be read
         * @param invalidReasons the result's reasons plus the suite's own (a frag run without fragments)
         */
        record Completed(Marker marker, int run, TransferResult result, OptionalLong fragmentsCreated,
                         List<String> invalidReasons) implements Outcome {
            public Completed {
                invalidReasons = List.copyOf(invalidReasons);
            }

            public boolean valid() {
                return invalidReasons.isEmpty();
            }
        }

        /** The marker could not run here; {@code reason} says why and what to do. */
        record Skipped(Marker marker, int run, String reason) implements Outcome {}

        /** The transfer failed; {@code usageError} when the input (such as a port in use) caused it. */
        record Failed(Marker marker, int run, String error, boolean usageError) implements Outcome {}
    }

    /** Receives each outcome, and interval samples while a transfer runs, on the calling thread. */
    public interface Listener {
        /** Before a transfer starts. */
        default void onStart(Marker marker, int run, TransferSpec spec) {
        }

        default void onInterval(Marker marker, int run, io.linerate.core.IntervalSample sample) {
        }

        void onOutcome(Outcome outcome);
    }

    private final Transport transport;
    private final Clock clock;

    /**
     * @param transport what every transfer runs on, such as {@code Transports.select(null, spec)} for
     *     one of the suite's specs; it must run TCP and UDP streams with both ends on loopback
     * @param clock the time source of every measurement
     */
    public LoopbackSuite(Transport transport, Clock clock) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Runs every selected marker {@code repeat} times, in rounds. A failure caused by the input (a
     * port in use) ends the suite, since every later transfer would fail the same way.
     *
     * @param config what to run
     * @param listener receives outcomes as they happen
     * @return every outcome, in order
     * @throws IllegalArgumentException if the config is invalid for a selected marker, or the
     *     transport cannot run one of the markers' specs (before any traffic), naming the marker
     *     and the reason
     */
    public List<Outcome> run(Config config, Listener listener) {
        config.validate();
        for (Marker m : config.markers()) {
            TransferSpec spec = config.spec(m);
            Optional<String> why = transport.patterns().contains(Pattern.STREAM) ? transport.unsupportedReason(spec)
                    : Optional.of("it does not run " + Pattern.STREAM.label() + "s");
            if (why.isPresent()) {
                throw new IllegalArgumentException("transport " + transport.name() + " cannot run marker " + m.label()
                        + ": " + why.get());
            }
        }
        long total = (long) config.repeat() * config.markers().size();
        try (RunProgress progress = LiveCounters.process().progress("loopback suite", total)) {
            return runAll(config, listener, progress);
        }
    }

    private List<Outcome> runAll(Config config, Listener listener, RunProgress progress) {
        List<Outcome> out = new ArrayList<>();
        for (int run = 1; run <= config.repeat(); run++) {
            for (Marker m : config.markers()) {
                Outcome o = runOne(config, m, run, listener);
                out.add(o);
                progress.done(out.size());
                listener.onOutcome(o);
                if (o instanceof Outcome.Failed f && f.usageError()) {
                    return out;
                }
            }
        }
        return out;
    }

    private Outcome runOne(Config config, Marker m, int run, Listener listener) {
        TransferSpec spec = config.spec(m);
        if (m.fragmenting()) {
            Optional<String> why = LoopbackRules.fragmentationUnavailable(m, spec.payloadBytes());
            if (why.isPresent()) {
                return new Outcome.Skipped(m, run, why.get());
            }
        }
        listener.onStart(m, run, spec);
        Optional<FragmentCounters> before = LoopbackRules.fragmentCounters(m.family());
        IntervalListener intervals = s -> listener.onInterval(m, run, s);
        try (Transfer t = transport.open(spec, clock)) {
            TransferResult r = t.run(intervals);
            Optional<FragmentCounters> after = LoopbackRules.fragmentCounters(m.family());
            List<String> reasons = new ArrayList<>(r.invalidReasons());
            OptionalLong created = m.fragmenting() ? LoopbackRules.fragmentsCreated(before, after) : OptionalLong.empty();
            if (created.isPresent() && created.getAsLong() <= 0) {
                reasons.add(LoopbackRules.NO_FRAGMENTS);
            }
            return new Outcome.Completed(m, run, r, created, reasons);
        } catch (TransferException e) {
            return new Outcome.Failed(m, run, e.getMessage(), e.isUsageError());
        }
    }

    /** @return the MTU of this namespace's loopback interface, if it can be read */
    public static OptionalLong loopbackMtu() {
        return LoopbackRules.loopbackMtu();
    }
}
