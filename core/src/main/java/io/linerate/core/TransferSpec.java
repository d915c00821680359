package io.linerate.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What to measure: an immutable, validated description of one transfer. Build it with
 * {@link #builder()}; {@link Builder#build()} rejects every inconsistent value with an
 * {@link IllegalArgumentException} that names the value and the allowed range.
 *
 * <p>Units: sizes in bytes, rates in bit/s (decimal), times as {@link Duration}.
 */
public final class TransferSpec implements MeasurementSpec {
    /** Payload of one write or datagram when none is given: zperf's default, 1220 bytes. */
    public static final int DEFAULT_PAYLOAD_BYTES = 1220;
    /** iperf3's TCP write when none is given ({@code -l}): 128 KiB. */
    public static final int IPERF3_TCP_PAYLOAD_BYTES = 128 * 1024;
    /**
     * The most a UDP payload chosen by {@link PayloadLimits#unfragmentedUdpPayloadBytes} holds, bytes: iperf3's
     * default when it knows no MSS (1460), which also keeps loopback runs (MTU 65536) comparable
     * with runs over Ethernet.
     */
    public static final int UDP_PAYLOAD_CAP_BYTES = 1460;
    /**
     * Traffic class when none is given: DSCP CS1 (TOS byte 0x20). Every upload runs at a
     * non-default class so that a stack that drops or mis-queues marked traffic shows up.
     */
    public static final int DEFAULT_TRAFFIC_CLASS = 0x20;
    /** Largest TCP write accepted: 64 MiB. */
    public static final int MAX_TCP_PAYLOAD_BYTES = 64 << 20;
    /** Shortest reporting interval accepted: 10 ms. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(10);
    /** Longest I/O timeout accepted: 10 minutes. */
    public static final Duration MAX_IO_TIMEOUT = Duration.ofMinutes(10);
    /** Pacing timer when none is given: 1 ms, iperf3's {@code --pacing-timer} default. */
    public static final Duration DEFAULT_PACING_TIMER = Duration.ofMillis(1);
    /** Longest pacing timer accepted: 10 ms ({@link PacingWait#MAX_TICK_NANOS}). */
    public static final Duration MAX_PACING_TIMER = Duration.ofNanos(PacingWait.MAX_TICK_NANOS);

    private final Protocol protocol;
    private final AddressFamily family;
    private final int payloadBytes;
    private final Bound bound;
    private final long rateBitsPerSecond;
    private final boolean noDelay;
    private final int trafficClass;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private final Duration warmup;
    private final Duration interval;
    private final int port;
    private final Duration ioTimeout;
    private final Duration pacingTimer;
    private final int streamId;
    private final Endpoint endpoint;
    private final Optional<Path> fullLog;
    private final StreamIo io;
    private final Affinity affinity;

    private TransferSpec(Builder b) {
        this.protocol = b.protocol;
        this.family = b.family;
        this.payloadBytes = b.payloadBytes;
        this.bound = b.bound;
        this.rateBitsPerSecond = b.rateBitsPerSecond;
        this.noDelay = b.noDelay;
        this.trafficClass = b.trafficClass;
        this.sendBufferBytes = b.sendBufferBytes;
        this.receiveBufferBytes = b.receiveBufferBytes;
        this.warmup = b.warmup;
        this.interval = b.interval;
        this.port = b.port;
        this.ioTimeout = b.ioTimeout;
        this.pacingTimer = b.pacingTimer;
        this.streamId = b.streamId;
        this.endpoint = b.endpoint;
        this.fullLog = b.fullLog;
        this.io = b.io;
        this.affinity = b.affinity;
    }

    /** @return a builder with the defaults: TCP, IPv4, 1220-byte payload, 10 s, unlimited rate */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this spec's values */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.protocol = protocol;
        b.family = family;
        b.payloadBytes = payloadBytes;
        b.bound = bound;
        b.rateBitsPerSecond = rateBitsPerSecond;
        b.noDelay = noDelay;
        b.trafficClass = trafficClass;
        b.sendBufferBytes = sendBufferBytes;
        b.receiveBufferBytes = receiveBufferBytes;
        b.warmup = warmup;
        b.interval = interval;
        b.port = port;
        b.ioTimeout = ioTimeout;
        b.pacingTimer = pacingTimer;
        b.streamId = streamId;
        b.endpoint = endpoint;
        b.fullLog = fullLog;
        b.io = io;
        b.affinity = affinity;
        return b;
    }

    /** @return how the ends call the kernel; {@link StreamIo#DEFAULT} lets the transport choose */
    public StreamIo io() {
        return io;
    }

    /**
     * @return the CPUs the ends' threads run on, as iperf3's {@code -A n,m}: the client's CPU pins
     *     every sending thread of a stream in one JVM, and this host's end of a stream with a peer;
     *     the server's CPU pins every receiving thread in one JVM, and is not sent to a peer
     *     ({@link Affinity#NONE}: none pinned)
     */
    public Affinity affinity() {
        return affinity;
    }

    /** @return TCP or UDP */
    public Protocol protocol() {
        return protocol;
    }

    /** @return IPv4 or IPv6 */
    public AddressFamily family() {
        return family;
    }

    /** @return bytes per write (TCP) or per datagram (UDP, header included) */
    public int payloadBytes() {
        return payloadBytes;
    }

    /** @return what ends the transfer */
    public Bound bound() {
        return bound;
    }

    /** @return target sending rate in bit/s of payload; 0 means as fast as possible */
    public long rateBitsPerSecond() {
        return rateBitsPerSecond;
    }

    /** @return whether TCP_NODELAY is requested (TCP only) */
    public boolean noDelay() {
        return noDelay;
    }

    /** @return the IP_TOS / IPv6 traffic class byte requested for the sender, 0..255 */
    public int trafficClass() {
        return trafficClass;
    }

    /** @return SO_SNDBUF requested in bytes; 0 leaves the kernel default */
    public int sendBufferBytes() {
        return sendBufferBytes;
    }

    /** @return SO_RCVBUF requested in bytes; 0 leaves the kernel default */
    public int receiveBufferBytes() {
        return receiveBufferBytes;
    }

    /** @return time omitted from the summary at the start (iperf3's {@code --omit}) */
    public Duration warmup() {
        return warmup;
    }

    /** @return length of one interval sample */
    public Duration interval() {
        return interval;
    }

    /** @return receiver port, 0 for an ephemeral port */
    public int port() {
        return port;
    }

    /** @return bound on every blocking wait (connect, accept, a write that makes no progress, teardown) */
    public Duration ioTimeout() {
        return ioTimeout;
    }

    /**
     * @return how coarsely a paced sender waits ({@link PacingWait}): it wakes at most about once
     *     per timer and sends every message then due, so a message may leave up to about this late
     *     but never early; 0 wakes for every message and spins its last microseconds
     */
    public Duration pacingTimer() {
        return pacingTimer;
    }

    /** @return the stream id carried in every datagram header */
    public int streamId() {
        return streamId;
    }

    /** @return {@link Pattern#STREAM} */
    @Override
    public Pattern pattern() {
        return Pattern.STREAM;
    }

    /**
     * @return the marker zperf uses: protocol, family and {@code _nodelay} ({@code udp4},
     *     {@code tcp6_nodelay}), then the data path's {@link StreamIo#markerSuffix()}
     *     ({@code udp4_gso}, {@code tcp4_zerocopy_skiprxcopy})
     */
    @Override
    public String testName() {
        return protocol.label() + family.label() + (noDelay ? "_nodelay" : "") + io.markerSuffix();
    }

    /** @return where the far end runs: loopback in this JVM (the default) or a remote peer */
    @Override
    public Endpoint endpoint() {
        return endpoint;
    }

    /**
     * @return the file of the full log, one line per datagram received (see
     *     {@link io.linerate.core.fulllog.FullLog}); empty for none (the default). UDP only.
     */
    public Optional<Path> fullLog() {
        return fullLog;
    }

    @Override
    public String toString() {
        return protocol.label() + family.label() + " payload=" + payloadBytes + "B bound=" + bound
                + " rate=" + (rateBitsPerSecond == 0 ? "unlimited" : rateBitsPerSecond + "bit/s") + " nodelay=" + noDelay + " tclass=0x"
                + Integer.toHexString(trafficClass) + " warmup=" + warmup.toMillis() + "ms"
                + (endpoint.remoteAddress().isPresent() ? " peer=" + endpoint : "")
                + (io.isDefault() ? "" : " " + io) + (affinity.pins() ? " affinity=" + affinity.label() : "");
    }

    /** Mutable builder; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private Protocol protocol = Protocol.TCP;
        private AddressFamily family = AddressFamily.IPV4;
        private int payloadBytes = DEFAULT_PAYLOAD_BYTES;
        private Bound bound = Bound.duration(Duration.ofSeconds(10));
        private long rateBitsPerSecond;
        private boolean noDelay;
        private int trafficClass = DEFAULT_TRAFFIC_CLASS;
        private int sendBufferBytes;
        private int receiveBufferBytes;
        private Duration warmup = Duration.ofMillis(250);
        private Duration interval = Duration.ofSeconds(1);
        private int port;
        private Duration ioTimeout = Duration.ofSeconds(5);
        private Duration pacingTimer = DEFAULT_PACING_TIMER;
        private int streamId = 1;
        private Endpoint endpoint = Endpoint.loopback();
        private Optional<Path> fullLog = Optional.empty();
        private StreamIo io = StreamIo.DEFAULT;
        private Affinity affinity = Affinity.NONE;

        private Builder() {}

        public Builder protocol(Protocol v) {
            this.protocol = Objects.requireNonNull(v, "protocol");
            return this;
        }

        public Builder family(AddressFamily v) {
            this.family = Objects.requireNonNull(v, "family");
            return this;
        }

        /** @param v bytes per write or datagram; range checked in {@link #build()} */
        public Builder payloadBytes(int v) {
            this.payloadBytes = v;
            return this;
        }

        public Builder bound(Bound v) {
            this.bound = Objects.requireNonNull(v, "bound");
            return this;
        }

        /** Shorthand for {@code bound(Bound.duration(v))}. */
        public Builder duration(Duration v) {
            return bound(Bound.duration(v));
        }

        /** @param v bit/s, 0 for as fast as possible, never negative */
        public Builder rateBitsPerSecond(long v) {
            this.rateBitsPerSecond = v;
            return this;
        }

        public Builder noDelay(boolean v) {
            this.noDelay = v;
            return this;
        }

        /** @param v TOS / traffic class byte, 0..255 */
        public Builder trafficClass(int v) {
            this.trafficClass = v;
            return this;
        }

        /** @param v SO_SNDBUF bytes, 0 for the kernel default */
        public Builder sendBufferBytes(int v) {
            this.sendBufferBytes = v;
            return this;
        }

        /** @param v SO_RCVBUF bytes, 0 for the kernel default */
        public Builder receiveBufferBytes(int v) {
            this.receiveBufferBytes = v;
            return this;
        }

        public Builder warmup(Duration v) {
            this.warmup = Objects.requireNonNull(v, "warmup");
            return this;
        }

        public Builder interval(Duration v) {
            this.interval = Objects.requireNonNull(v, "interval");
            return this;
        }

        /** @param v 0..65535, 0 for ephemeral */
        public Builder port(int v) {
            this.port = v;
            return this;
        }

        public Builder ioTimeout(Duration v) {
            this.ioTimeout = Objects.requireNonNull(v, "ioTimeout");
            return this;
        }

        /** @param v the pacing timer, 0..10 ms; 0 for a wake-up per message (see {@link #pacingTimer()}) */
        public Builder pacingTimer(Duration v) {
            this.pacingTimer = Objects.requireNonNull(v, "pacingTimer");
            return this;
        }

        public Builder streamId(int v) {
            this.streamId = v;
            return this;
        }

        /** @param v where the far end runs; {@link Endpoint#loopback()} by default */
        public Builder endpoint(Endpoint v) {
            this.endpoint = Objects.requireNonNull(v, "endpoint");
            return this;
        }

        /**
         * @param v the file to write every received datagram's entry to, as sockperf's
         *     {@code --full-log}, or null for none (the default); UDP only
         */
        public Builder fullLog(Path v) {
            this.fullLog = Optional.ofNullable(v);
            return this;
        }

        /**
         * @param v how the ends call the kernel ({@code sendmmsg(2)} batches, UDP GSO/GRO,
         *     {@code sendfile(2)}, {@code MSG_TRUNC}); default {@link StreamIo#DEFAULT}
         * @return this
         */
        public Builder io(StreamIo v) {
            io = Objects.requireNonNull(v, "io");
            return this;
        }

        /** @param v the CPUs the ends' threads run on (see {@link TransferSpec#affinity()}) */
        public Builder affinity(Affinity v) {
            affinity = Objects.requireNonNull(v, "affinity");
            return this;
        }

        /**
         * @return the validated spec
         * @throws IllegalArgumentException naming the first bad value and its allowed range
         */
        public TransferSpec build() {
            return TransferSpecRanges.check(new TransferSpec(this));
        }
    }
}
