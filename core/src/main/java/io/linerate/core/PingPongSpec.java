package io.linerate.core;

import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.LatencyMode;
import io.linerate.core.latency.LatencyStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a ping-pong measures: the protocol, message sizes in bytes, how long each size runs, how
 * each end waits, socket options, the per-operation timeout, and how results are summarised.
 * Immutable; validated when built.
 *
 * @param protocol what messages travel over
 * @param family IPv4 or IPv6 loopback, for tcp and udp
 * @param sizes message sizes in bytes, in the order run; each in 1..{@link PingPongProtocol#maxMessageBytes}
 * @param policy warm-up, floors and caps of each size
 * @param clientMuxer how the client waits
 * @param serverMuxer how the echo server waits
 * @param noDelay TCP_NODELAY on both ends (tcp only)
 * @param sendBufferBytes SO_SNDBUF to request on both ends, 0 for the kernel's default
 * @param receiveBufferBytes SO_RCVBUF to request on both ends, 0 for the kernel's default
 * @param trafficClass IP_TOS / IPv6 traffic class on both ends (tcp, udp), 0..255
 * @param timeout bound of one round trip (the message and its whole answer), greater than 0; an answer that is
 *     there only after it fails the run as a timeout
 * @param percentile the percentile reported beside the median, in (0, 100]
 * @param mode half round trips (default) or round trips
 * @param idle how the polling ends ({@link Muxer#polls()}) wait between polls; empty for each
 *     muxer's own ({@link Muxer#defaultIdle()}); only with a polling muxer on at least one end
 * @param fullLog the file to write every round trip's entry to (see
 *     {@link io.linerate.core.fulllog.FullLog}), or empty for none
 * @param endpoint where the echo server runs: {@link Endpoint#loopback()} (in this JVM, the
 *     default) or linerate's agent: {@link AgentPeer} (its address and secret; direction forward,
 *     1 stream) or {@link Endpoint.Remote} (an agent that asks no secret)
 * @param multicast sfnt-pingpong's {@code --mcast}, {@code --mcastintf} and {@code --mcastloop}
 *     (udp only, the group of the family; not with {@code connect}), or empty for unicast
 * @param connect sfnt-pingpong's {@code --connect} (udp only): each end connects its UDP socket to
 *     the other's, so it sends with send() and receives only the other's datagrams; without it
 *     each end sends with sendto() to the other's address and receives from any sender
 * @param affinity the CPUs the client and the echo server run on (sfnt-pingpong's {@code --affinity});
 *     {@link Affinity#NONE} to pin neither. With an agent, the agent pins its echo thread.
 * @param bindToDevice sfnt-pingpong's {@code --bindtodev}: the network interface both ends' sockets
 *     are bound to ({@code SO_BINDTODEVICE}, socket(7); tcp and udp only, 1..{@value
 *     #MAX_INTERFACE_NAME_BYTES} bytes, no whitespace or '/'), or empty for none. Whether the
 *     interface exists is checked when the sockets open.
 */
public record PingPongSpec(PingPongProtocol protocol, AddressFamily family, List<Integer> sizes,
                           IterationPolicy policy, Muxer clientMuxer, Muxer serverMuxer, boolean noDelay,
                           int sendBufferBytes, int receiveBufferBytes, int trafficClass, Duration timeout,
                           double percentile, LatencyMode mode, Optional<Idle> idle, Optional<Path> fullLog,
                           Endpoint endpoint, Optional<PingPongMulticast> multicast, boolean connect,
                           Affinity affinity, Optional<String> bindToDevice) implements MeasurementSpec {
    /** Longest interface name, bytes: IFNAMSIZ (16, {@code <net/if.h>}) less its terminating NUL. */
    public static final int MAX_INTERFACE_NAME_BYTES = 15;

    /** @throws IllegalArgumentException naming the value and its allowed range */
    public PingPongSpec {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(clientMuxer, "clientMuxer");
        Objects.requireNonNull(serverMuxer, "serverMuxer");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(fullLog, "fullLog");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(multicast, "multicast");
        checkUdpOptions(protocol, family, multicast, connect);
        Objects.requireNonNull(affinity, "affinity");
        Objects.requireNonNull(bindToDevice, "bindToDevice");
        bindToDevice.ifPresent(name -> checkBindToDevice(protocol, name));
        AgentPeer.checkAddressAndSecretOnly(endpoint, Pattern.PING_PONG);
        if (idle.isPresent() && !clientMuxer.polls() && !serverMuxer.polls()) {
            throw new IllegalArgumentException("idle strategy " + idle.get().label() + " applies to the polling muxers "
                    + "spin and backoff only; the client waits with " + clientMuxer.label() + " and the server with "
                    + serverMuxer.label());
        }
        sizes = List.copyOf(sizes);
        if (sizes.isEmpty()) {
            throw new IllegalArgumentException("no message size given; allowed: at least one size in 1.."
                    + protocol.maxMessageBytes(family) + " bytes");
        }
        int max = protocol.maxMessageBytes(family);
        for (int s : sizes) {
            if (s < 1 || s > max) {
                throw new IllegalArgumentException("message size " + s + " bytes is out of range: " + protocol.label()
                        + (protocol == PingPongProtocol.UDP ? " over IPv" + family.label() : "") + " allows 1.." + max + " bytes");
            }
        }
        checkBuffer("sndbuf", sendBufferBytes);
        checkBuffer("rcvbuf", receiveBufferBytes);
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("traffic class " + trafficClass + " is out of range; allowed: 0..255");
        }
        if (!protocol.ip() && (trafficClass != 0 || family != AddressFamily.IPV4)) {
            // a Unix-domain socket or a pipe has no IP header: neither option could be applied, so neither is taken
            throw new IllegalArgumentException((trafficClass != 0 ? String.format(java.util.Locale.ROOT,
                    "traffic class 0x%02x", trafficClass) : "family IPv" + family.label()) + " applies to tcp and udp "
                    + "only, not " + protocol.label() + ", which carries no IP header; allowed: --protocol tcp or udp");
        }
        if (timeout.compareTo(java.time.Duration.ofMillis(1)) < 0 || timeout.compareTo(TransferSpec.MAX_IO_TIMEOUT) > 0) {
            throw new IllegalArgumentException("timeout " + Units.text(timeout) + " is out of range; allowed: 1 ms..10 min,"
                    + " as the stream's --io-timeout");
        }
        LatencyStats.checkPercentile(percentile);
    }

    private static void checkBindToDevice(PingPongProtocol protocol, String name) {
        if (!protocol.ip()) {
            throw new IllegalArgumentException("bindtodev " + name + " applies to tcp and udp only, not "
                    + protocol.label());
        }
        int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (name.isBlank() || bytes > MAX_INTERFACE_NAME_BYTES || name.chars().anyMatch(c -> c == '/' || Character.isWhitespace(c))) {
            throw new IllegalArgumentException("bindtodev interface name '" + name + "' (" + bytes + " bytes) is not "
                    + "an interface name; allowed: 1.." + MAX_INTERFACE_NAME_BYTES + " bytes (IFNAMSIZ less its NUL), "
                    + "no whitespace or '/'");
        }
    }

    private static void checkUdpOptions(PingPongProtocol protocol, AddressFamily family,
                                        Optional<PingPongMulticast> multicast, boolean connect) {
        if (protocol != PingPongProtocol.UDP && (multicast.isPresent() || connect)) {
            throw new IllegalArgumentException((multicast.isPresent() ? "mcast" : "connect") + " applies to udp "
                    + "ping-pong; the protocol is " + protocol.label() + "; allowed: --protocol udp");
        }
        if (multicast.isPresent() && !multicast.get().isOf(family)) {
            throw new IllegalArgumentException("mcast group " + multicast.get().group().getHostAddress()
                    + " is not an IPv" + family.label() + " group; allowed: "
                    + (family == AddressFamily.IPV4 ? "224.0.0.0/4" : "ff00::/8") + " with IPv" + family.label());
        }
        if (multicast.isPresent() && connect) {
            // a UDP socket connected to a group takes only datagrams whose source is the group, and
            // every datagram's source is its sender's unicast address
            throw new IllegalArgumentException("connect does not apply with mcast " + multicast.get().group()
                    .getHostAddress() + ": a socket connected to a group receives no datagram, as no sender's "
                    + "source address is the group; allowed: one of --connect, --mcast");
        }
    }

    private static void checkBuffer(String name, int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException(name + " " + bytes + " bytes is out of range; allowed: 0 (kernel default) or more");
        }
    }

    /**
     * @param muxer one end's muxer
     * @return how that end waits between polls: {@link #idle()} or the muxer's default; empty when
     *     the muxer does not poll
     */
    public Optional<Idle> idleOf(Muxer muxer) {
        return muxer.polls() ? idle.or(muxer::defaultIdle) : Optional.empty();
    }

    /** @return the largest size, bytes */
    public int maxSize() {
        int m = 0;
        for (int s : sizes) {
            m = Math.max(m, s);
        }
        return m;
    }

    /**
     * sfnt-pingpong's sweep: {@code min}, {@code 2·min}, {@code 4·min}, ... up to {@code max}.
     *
     * @param min first size, bytes, at least 1
     * @param max last size allowed, bytes, at least {@code min}
     * @return the sizes
     * @throws IllegalArgumentException naming the value and the allowed range
     */
    public static List<Integer> powersOfTwo(int min, int max) {
        if (min < 1) {
            throw new IllegalArgumentException("minmsg " + min + " bytes is out of range; allowed: >= 1");
        }
        if (min > max) {
            throw new IllegalArgumentException("minmsg " + min + " is above maxmsg " + max + "; allowed: minmsg <= maxmsg");
        }
        List<Integer> out = new ArrayList<>();
        for (long s = min; s <= max; s *= 2) {
            out.add((int) s);
        }
        return out;
    }

    /** @return a builder with the defaults: tcp over IPv4, size 1 byte, {@link IterationPolicy#DEFAULT}, blocking on both ends, TCP_NODELAY on, 2 s timeout, p99, half-RTT, loopback, unicast, UDP sockets not connected, bound to no device */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this spec's values, so that one can be changed and the rest kept */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.protocol = protocol;
        b.family = family;
        b.sizes = sizes;
        b.policy = policy;
        b.clientMuxer = clientMuxer;
        b.serverMuxer = serverMuxer;
        b.noDelay = noDelay;
        b.sendBufferBytes = sendBufferBytes;
        b.receiveBufferBytes = receiveBufferBytes;
        b.trafficClass = trafficClass;
        b.timeout = timeout;
        b.percentile = percentile;
        b.mode = mode;
        b.idle = idle;
        b.fullLog = fullLog;
        b.endpoint = endpoint;
        b.multicast = multicast;
        b.connect = connect;
        b.affinity = affinity;
        b.bindToDevice = bindToDevice;
        return b;
    }

    /** Builds a {@link PingPongSpec}; defaults as in {@link #builder()}. */
    public static final class Builder {
        private PingPongProtocol protocol = PingPongProtocol.TCP;
        private AddressFamily family = AddressFamily.IPV4;
        private List<Integer> sizes = List.of(1);
        private IterationPolicy policy = IterationPolicy.DEFAULT;
        private Muxer clientMuxer = Muxer.BLOCKING;
        private Muxer serverMuxer = Muxer.BLOCKING;
        private boolean noDelay = true;
        private int sendBufferBytes;
        private int receiveBufferBytes;
        private int trafficClass;
        private Duration timeout = Duration.ofSeconds(2);
        private double percentile = LatencyStats.DEFAULT_PERCENTILE;
        private LatencyMode mode = LatencyMode.HALF_RTT;
        private Optional<Idle> idle = Optional.empty();
        private Optional<Path> fullLog = Optional.empty();
        private Endpoint endpoint = Endpoint.loopback();
        private Optional<PingPongMulticast> multicast = Optional.empty();
        private boolean connect;
        private Affinity affinity = Affinity.NONE;
        private Optional<String> bindToDevice = Optional.empty();

        private Builder() {}

        /** @param v what messages travel over; default tcp */
        public Builder protocol(PingPongProtocol v) { protocol = v; return this; }
        /** @param v IPv4 or IPv6 loopback for tcp and udp; default IPv4 */
        public Builder family(AddressFamily v) { family = v; return this; }
        /** @param v message sizes in bytes, in the order run; default 1 */
        public Builder sizes(List<Integer> v) { sizes = v; return this; }
        /** @param v warm-up, floors and caps of each size; default {@link IterationPolicy#DEFAULT} */
        public Builder policy(IterationPolicy v) { policy = v; return this; }
        /** @param v how the client waits; default blocking */
        public Builder clientMuxer(Muxer v) { clientMuxer = v; return this; }
        /** @param v how the echo server waits; default blocking */
        public Builder serverMuxer(Muxer v) { serverMuxer = v; return this; }
        /** @param v TCP_NODELAY on both ends; default on */
        public Builder noDelay(boolean v) { noDelay = v; return this; }
        /** @param v SO_SNDBUF in bytes, 0 for the kernel default (the default) */
        public Builder sendBufferBytes(int v) { sendBufferBytes = v; return this; }
        /** @param v SO_RCVBUF in bytes, 0 for the kernel default (the default) */
        public Builder receiveBufferBytes(int v) { receiveBufferBytes = v; return this; }
        /** @param v IP_TOS / traffic class byte, 0..255; default 0 */
        public Builder trafficClass(int v) { trafficClass = v; return this; }
        /** @param v bound of every single wait; default 2 s */
        public Builder timeout(Duration v) { timeout = v; return this; }
        /** @param v percentile beside the median, in (0, 100]; default 99 */
        public Builder percentile(double v) { percentile = v; return this; }
        /** @param v half round trips (default) or round trips */
        public Builder mode(LatencyMode v) { mode = v; return this; }
        /** @param v how the polling ends wait between polls, null for each muxer's own (the default) */
        public Builder idle(Idle v) { idle = Optional.ofNullable(v); return this; }
        /** @param v the file of the full log, one line per round trip; null for none (the default) */
        public Builder fullLog(Path v) { fullLog = Optional.ofNullable(v); return this; }
        /** @param v where the echo server runs; default {@link Endpoint#loopback()} */
        public Builder endpoint(Endpoint v) { endpoint = v; return this; }
        /** @param v the multicast options (udp only), null for unicast (the default) */
        public Builder multicast(PingPongMulticast v) { multicast = Optional.ofNullable(v); return this; }
        /** @param v connect the UDP sockets to each other (udp only); default off, as sfnt-pingpong */
        public Builder connect(boolean v) { connect = v; return this; }
        /** @param v the CPUs the client and the echo server run on; default {@link Affinity#NONE} */
        public Builder affinity(Affinity v) { affinity = v; return this; }
        /** @param v the interface both ends' sockets are bound to (SO_BINDTODEVICE), null for none (the default) */
        public Builder bindToDevice(String v) { bindToDevice = Optional.ofNullable(v); return this; }

        /** @throws IllegalArgumentException as {@link PingPongSpec#PingPongSpec} */
        public PingPongSpec build() {
            return new PingPongSpec(protocol, family, sizes, policy, clientMuxer, serverMuxer, noDelay,
                    sendBufferBytes, receiveBufferBytes, trafficClass, timeout, percentile, mode, idle, fullLog, endpoint, multicast,
                    connect, affinity, bindToDevice);
        }
    }

    /** @return {@link Pattern#PING_PONG} */
    @Override
    public Pattern pattern() {
        return Pattern.PING_PONG;
    }

    /** @return {@code pingpong_<protocol>}, such as {@code pingpong_tcp} */
    @Override
    public String testName() {
        return "pingpong_" + protocol.label();
    }
}
