package io.linerate.core;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a raw-frame transfer (the afpacket transport) sends: frames of {@code frameSize} bytes (L2, destination MAC to the
 * end of the payload, FCS excluded) from {@code txInterface} to {@code rxInterface}, one stream per
 * ethertype. Each payload starts with linerate's {@link io.linerate.core.DatagramHeader} (stream
 * id, 64-bit sequence number, send time, phase of the run) and is zero after it. Immutable;
 * validated on construction (checks that need the interfaces happen in the afpacket transport's run).
 *
 * <p>A spec names both ends ({@link #builder}), or one: a TX-only run ({@link #txOnly}) sends and
 * reports what it sent, an RX-only run ({@link #rxOnly}) receives for warm-up + duration and
 * reports what it counted, for two hosts or for a peer tool at the other end. Loss needs both
 * counts, so a run with one end reports none; its result says why
 * (the raw result's {@code lossUnknown()}). Start the RX-only end first and let it listen longer than
 * the sender sends: it counts only what arrives while it listens.
 *
 * <p>With linerate's agent as the endpoint ({@link AgentPeer}, its address and secret, direction
 * forward and 1 stream; or {@link Endpoint.Remote}, an agent that asks no secret), a one-ended spec
 * names this host's end and {@code peerInterface} the peer's: a TX-only spec sends here to the
 * peer's agent receiving on {@code peerInterface}, an RX-only spec receives here what the agent
 * sends from it. The
 * destination MAC of a TX-only spec with a remote endpoint may be left out: the agent tells it (the
 * address of {@code peerInterface}).
 *
 * @param txInterface the sending interface; empty for an RX-only run
 * @param rxInterface the receiving interface; empty for a TX-only run
 * @param etherTypes one stream per ethertype, each 0x0600..0xffff, distinct, 1..16 of them
 * @param frameSize bytes per frame, 60..MTU+14
 * @param destinationMac 6 bytes, or empty for the RX interface's address; required in a TX-only run
 * @param sourceMac 6 bytes, or empty for the TX interface's address
 * @param rateBitsPerSecond target of all streams together in bit/s at L2 (frame bytes × 8); 0 = unlimited
 * @param duration measured time after the warm-up, 1 ms..1 day
 * @param warmup time sent before the measured window and left out of it, 0..1 day
 * @param interval length of the interval samples, 1 ms..1 day
 * @param batch frames per sendmmsg call, 1..1024
 * @param steer whether to install Flow Director rules (stream i to RX queue i mod rings)
 * @param allowUnsteered whether to run without steering when the RX interface has no ntuple
 *     rules (the result says so); otherwise that is an error
 * @param hardwareTimestamps whether to try hardware RX stamps (SIOCSHWTSTAMP, restored afterwards)
 * @param retireTimeout TPACKET_V3 block retire timeout, 1..1000 ms
 * @param drainTimeout after the sender stops, how long the receiver waits for frames still in
 *     flight, 1 ms..60 s
 * @param txRing whether to send through a TPACKET_V2 TX ring (one send call per batch, frames
 *     written in place) instead of sendmmsg
 * @param idle how the loops wait when they have nothing to do; empty for the default (the sender
 *     yields, the receiver sleeps in poll(2))
 * @param endpoint where the far end runs: {@link Endpoint#loopback()} (both interfaces driven by
 *     this JVM, the default) or a peer whose agent drives the other end ({@link AgentPeer} or
 *     {@link Endpoint.Remote})
 * @param peerInterface the peer's interface, the agent's end of a run with a remote endpoint;
 *     present exactly then
 * @param unpaced whether the sender runs free of the receiver's credit (for benchmarks). By
 *     default, when both ends run in this process, the sender never has more frames in flight
 *     than a credit below the receiver's ring capacity, so linerate's own ring cannot overflow;
 *     with one end here (a remote peer, or a TX-only run) there is no credit and this is moot
 */
public record RawTransferSpec(Optional<String> txInterface, Optional<String> rxInterface, List<Integer> etherTypes, int frameSize,
                              Optional<byte[]> destinationMac, Optional<byte[]> sourceMac, long rateBitsPerSecond,
                              Duration duration, Duration warmup, Duration interval, int batch, boolean steer,
                              boolean allowUnsteered, boolean hardwareTimestamps, Duration retireTimeout,
                              Duration drainTimeout, boolean txRing, Optional<Idle> idle, Endpoint endpoint,
                              Optional<String> peerInterface, boolean unpaced)
        implements MeasurementSpec {
    /** IEEE 802 local experimental ethertype 1. */
    public static final int DEFAULT_ETHERTYPE = 0x88B5;
    /** Smallest Ethernet frame without FCS. */
    public static final int MIN_FRAME = 60;
    /** Most streams one transfer runs. */
    public static final int MAX_STREAMS = 16;
    /** The smallest value of the type field that is an ethertype, not an 802.3 length. */
    public static final int MIN_ETHERTYPE = 0x0600;
    /** Most frames in one sendmmsg call (the native side's limit). */
    public static final int MAX_BATCH = 1024;

    /**
     * A spec whose sender is credit-paced where both ends run here (not {@code unpaced}); see the
     * canonical constructor.
     *
     * @throws IllegalArgumentException naming the value and the allowed range
     */
    public RawTransferSpec(Optional<String> txInterface, Optional<String> rxInterface, List<Integer> etherTypes, int frameSize,
                           Optional<byte[]> destinationMac, Optional<byte[]> sourceMac, long rateBitsPerSecond,
                           Duration duration, Duration warmup, Duration interval, int batch, boolean steer,
                           boolean allowUnsteered, boolean hardwareTimestamps, Duration retireTimeout,
                           Duration drainTimeout, boolean txRing, Optional<Idle> idle, Endpoint endpoint,
                           Optional<String> peerInterface) {
        this(txInterface, rxInterface, etherTypes, frameSize, destinationMac, sourceMac, rateBitsPerSecond, duration, warmup,
                interval, batch, steer, allowUnsteered, hardwareTimestamps, retireTimeout, drainTimeout, txRing, idle, endpoint,
                peerInterface, false);
    }

    /** @throws IllegalArgumentException naming the value and the allowed range */
    public RawTransferSpec {
        Objects.requireNonNull(txInterface, "txInterface");
        Objects.requireNonNull(rxInterface, "rxInterface");
        txInterface.ifPresent(RawTransferSpec::checkInterfaceName);
        rxInterface.ifPresent(RawTransferSpec::checkInterfaceName);
        if (txInterface.isEmpty() && rxInterface.isEmpty()) {
            throw new IllegalArgumentException("no interface given; allowed: a TX interface, an RX interface or both");
        }
        if (txInterface.equals(rxInterface)) {
            throw new IllegalArgumentException("the tx and rx interfaces are the same, '" + txInterface.get()
                    + "'; allowed: two interfaces joined by a cable or a veth pair");
        }
        etherTypes = List.copyOf(etherTypes);
        if (etherTypes.isEmpty() || etherTypes.size() > MAX_STREAMS) {
            throw new IllegalArgumentException(etherTypes.size() + " ethertypes given; allowed: 1.." + MAX_STREAMS);
        }
        HashSet<Integer> seen = new HashSet<>();
        for (int e : etherTypes) {
            checkEtherType(e);
            if (!seen.add(e)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "ethertype 0x%04x is given twice; each stream needs its own", e));
            }
        }
        if (frameSize < MIN_FRAME || frameSize > 65535) {
            throw new IllegalArgumentException("frame size " + frameSize + " bytes is out of range; allowed: "
                    + MIN_FRAME + "..MTU+14 (L2, without FCS)");
        }
        destinationMac = checkMac(destinationMac, "destination");
        sourceMac = checkMac(sourceMac, "source");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(peerInterface, "peerInterface");
        AgentPeer.checkAddressAndSecretOnly(endpoint, Pattern.RAW_FRAMES);
        boolean remote = !(endpoint instanceof Endpoint.Loopback);
        if (remote && peerInterface.isEmpty()) {
            throw new IllegalArgumentException("remote peer " + endpoint + " has no interface named; allowed: the peer's "
                    + "interface, on which its agent receives (this host sends) or from which it sends (this host receives)");
        }
        if (!remote && peerInterface.isPresent()) {
            throw new IllegalArgumentException("peer interface '" + peerInterface.get()
                    + "' applies to a remote endpoint only; this run drives both interfaces here");
        }
        peerInterface.ifPresent(RawTransferSpec::checkInterfaceName);
        if (remote && txInterface.isPresent() == rxInterface.isPresent()) {
            throw new IllegalArgumentException("a run with remote peer " + endpoint + " has one end here and one at the "
                    + "peer; allowed: a TX interface (the peer receives on '" + peerInterface.get() + "') or an RX "
                    + "interface (the peer sends from it), not both");
        }
        if (rxInterface.isEmpty() && destinationMac.isEmpty() && !remote) {
            throw new IllegalArgumentException("a TX-only run has no RX interface to take the destination MAC from; "
                    + "allowed: the MAC of the receiving interface at the other end, such as 02:00:00:00:00:01");
        }
        if (rxInterface.isEmpty() && steer) {
            throw new IllegalArgumentException("steering installs rules on the RX interface, and this run has none; "
                    + "allowed: steering with an RX interface");
        }
        if (rateBitsPerSecond < 0) {
            throw new IllegalArgumentException("rate " + rateBitsPerSecond + " bit/s is out of range; allowed: 0 (unlimited) or more");
        }
        checkDuration("duration", duration, Duration.ofMillis(1), Duration.ofDays(1));
        checkDuration("warm-up", warmup, Duration.ZERO, Duration.ofDays(1));
        checkDuration("interval", interval, Duration.ofMillis(1), Duration.ofDays(1));
        checkDuration("retire timeout", retireTimeout, Duration.ofMillis(1), Duration.ofMillis(1000));
        checkDuration("drain timeout", drainTimeout, Duration.ofMillis(1), Duration.ofSeconds(60));
        if (batch < 1 || batch > MAX_BATCH) {
            throw new IllegalArgumentException("batch " + batch + " is out of range; allowed: 1.." + MAX_BATCH);
        }
        Objects.requireNonNull(idle, "idle");
    }

    /**
     * @param name a Linux interface name
     * @throws IllegalArgumentException naming the value unless it is 1..15 ASCII characters
     *     without '/' (IFNAMSIZ is 16 with the NUL, linux/if.h)
     */
    public static void checkInterfaceName(String name) {
        if (name.isEmpty() || name.length() > 15 || name.indexOf('/') >= 0
                || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("interface name '" + name
                    + "' is not valid; allowed: 1..15 ASCII characters without '/'");
        }
    }

    /**
     * @param etherType an Ethernet type field value
     * @throws IllegalArgumentException naming the value unless it is 0x0600..0xffff (values below
     *     are 802.3 lengths, IEEE 802.3 clause 3.2.6)
     */
    public static void checkEtherType(int etherType) {
        if (etherType < MIN_ETHERTYPE || etherType > 0xffff) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "ethertype 0x%04x is out of range; allowed: 0x0600..0xffff (lower values are 802.3 lengths)", etherType));
        }
    }

    private static Optional<byte[]> checkMac(Optional<byte[]> mac, String which) {
        Objects.requireNonNull(mac, which + "Mac");
        if (mac.isPresent() && mac.get().length != 6) {
            throw new IllegalArgumentException(which + " MAC has " + mac.get().length + " bytes; allowed: 6");
        }
        return mac.map(byte[]::clone);
    }

    private static void checkDuration(String what, Duration d, Duration min, Duration max) {
        Objects.requireNonNull(d, what);
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException(what + " " + Units.text(d) + " is out of range; allowed: "
                    + Units.text(min) + ".." + Units.text(max));
        }
    }

    /**
     * @return a builder of a run between two interfaces, with the defaults: 0x88B5, 1514 bytes,
     *     unlimited, 10 s, 1 s warm-up, batch 64, sendmmsg
     */
    public static Builder builder(String txInterface, String rxInterface) {
        return new Builder(Objects.requireNonNull(txInterface, "txInterface"), Objects.requireNonNull(rxInterface, "rxInterface"));
    }

    /**
     * @return a builder of a run that only sends, from {@code txInterface}, with the defaults of
     *     {@link #builder}; it needs a {@linkplain Builder#destinationMac destination MAC}
     */
    public static Builder txOnly(String txInterface) {
        return new Builder(Objects.requireNonNull(txInterface, "txInterface"), null);
    }

    /** @return a builder of a run that only receives, on {@code rxInterface}, with the defaults of {@link #builder} */
    public static Builder rxOnly(String rxInterface) {
        return new Builder(null, Objects.requireNonNull(rxInterface, "rxInterface"));
    }

    /**
     * @return a builder holding this spec's values, both ends' interfaces included, so that one
     *     value can be changed and the rest kept ({@code spec.toBuilder().frameSize(128).build()})
     */
    public Builder toBuilder() {
        Builder b = new Builder(txInterface.orElse(null), rxInterface.orElse(null));
        b.etherTypes = etherTypes;
        b.frameSize = frameSize;
        b.dst = destinationMac.orElse(null);
        b.src = sourceMac.orElse(null);
        b.rate = rateBitsPerSecond;
        b.duration = duration;
        b.warmup = warmup;
        b.interval = interval;
        b.batch = batch;
        b.steer = steer;
        b.allowUnsteered = allowUnsteered;
        b.hardwareTimestamps = hardwareTimestamps;
        b.retireTimeout = retireTimeout;
        b.drainTimeout = drainTimeout;
        b.txRing = txRing;
        b.idle = idle.orElse(null);
        b.endpoint = endpoint;
        b.peerInterface = peerInterface.orElse(null);
        b.unpaced = unpaced;
        return b;
    }

    /** @return whether the run sends (it has a TX interface) */
    public boolean sends() {
        return txInterface.isPresent();
    }

    /** @return whether the run receives (it has an RX interface) */
    public boolean receives() {
        return rxInterface.isPresent();
    }

    /** @return the L2 bits one frame carries: frame size × 8 */
    public long bitsPerFrame() {
        return frameSize * 8L;
    }

    /**
     * Parses a MAC address.
     *
     * @param text six hex octets separated by {@code :} or {@code -}
     * @throws IllegalArgumentException naming the value and the form expected
     */
    public static byte[] parseMac(String text) {
        String[] p = text.strip().split("[:-]");
        if (p.length != 6) {
            throw new IllegalArgumentException("MAC '" + text + "' is not valid; allowed: six hex octets such as 02:00:00:00:00:01");
        }
        byte[] mac = new byte[6];
        for (int i = 0; i < 6; i++) {
            if (!p[i].matches("[0-9a-fA-F]{1,2}")) {
                throw new IllegalArgumentException("MAC '" + text + "' is not valid; allowed: six hex octets such as 02:00:00:00:00:01");
            }
            mac[i] = (byte) Integer.parseInt(p[i], 16);
        }
        return mac;
    }

    /** Builds a {@link RawTransferSpec}. */
    public static final class Builder {
        private final String tx;
        private final String rx;
        private List<Integer> etherTypes = List.of(DEFAULT_ETHERTYPE);
        private int frameSize = 1514;
        private byte[] dst;
        private byte[] src;
        private long rate;
        private Duration duration = Duration.ofSeconds(10);
        private Duration warmup = Duration.ofSeconds(1);
        private Duration interval = Duration.ofSeconds(1);
        private int batch = 64;
        private boolean steer;
        private boolean allowUnsteered;
        private boolean hardwareTimestamps = true;
        private Duration retireTimeout = Duration.ofMillis(10);
        private Duration drainTimeout = Duration.ofSeconds(1);
        private boolean txRing;
        private Idle idle;
        private Endpoint endpoint = Endpoint.loopback();
        private String peerInterface;
        private boolean unpaced;

        Builder(String tx, String rx) {
            this.tx = tx;
            this.rx = rx;
        }

        /** Sets one stream per ethertype (default 0x88B5). */
        public Builder etherTypes(List<Integer> v) { etherTypes = v; return this; }
        /** Sets L2 bytes per frame without FCS (default 1514). */
        public Builder frameSize(int v) { frameSize = v; return this; }
        /** Sets 6 bytes; null (the default) for the RX interface's address. */
        public Builder destinationMac(byte[] v) { dst = v; return this; }
        /** Sets 6 bytes; null (the default) for the TX interface's address. */
        public Builder sourceMac(byte[] v) { src = v; return this; }
        /** Sets L2 bit/s of all streams together; 0 = unlimited (default). */
        public Builder rateBitsPerSecond(long v) { rate = v; return this; }
        /** Sets measured time after the warm-up (default 10 s). */
        public Builder duration(Duration v) { duration = v; return this; }
        /** Sets time sent before the measured window (default 1 s). */
        public Builder warmup(Duration v) { warmup = v; return this; }
        /** Sets interval sample and RX-stamp bucket length (default 1 s). */
        public Builder interval(Duration v) { interval = v; return this; }
        /** Sets frames per send call (default 64). */
        public Builder batch(int v) { batch = v; return this; }
        /** Sets install Flow Director rules (default false). */
        public Builder steer(boolean v) { steer = v; return this; }
        /** Sets run unsteered when the RX interface has no ntuple rules (default false). */
        public Builder allowUnsteered(boolean v) { allowUnsteered = v; return this; }
        /** Sets try hardware RX stamps (default true). */
        public Builder hardwareTimestamps(boolean v) { hardwareTimestamps = v; return this; }
        /** Sets TPACKET_V3 block retire timeout (default 10 ms). */
        public Builder retireTimeout(Duration v) { retireTimeout = v; return this; }
        /** Sets wait for frames in flight after the sender stops (default 1 s). */
        public Builder drainTimeout(Duration v) { drainTimeout = v; return this; }
        /** Sets send through a TPACKET_V2 TX ring instead of sendmmsg (default false). */
        public Builder txRing(boolean v) { txRing = v; return this; }
        /** Sets how the loops wait when idle; null for the default (the sender yields, the receiver sleeps in poll(2)). */
        public Builder idle(Idle v) { idle = v; return this; }
        /**
         * Sets where the far end runs (default {@link Endpoint#loopback()}: both interfaces driven by this JVM).
         *
         * @throws NullPointerException if {@code v} is null
         */
        public Builder endpoint(Endpoint v) { endpoint = Objects.requireNonNull(v, "endpoint"); return this; }
        /** Sets the peer's interface, the agent's end of a run with a remote {@link #endpoint}; null (the default) for none. */
        public Builder peerInterface(String v) { peerInterface = v; return this; }

        /**
         * Sets whether the sender runs free of the receiver's credit (default false: credit-paced
         * when both ends run here, so linerate's own RX ring never overflows); for benchmarks.
         */
        public Builder unpaced(boolean v) { unpaced = v; return this; }

        /** @throws IllegalArgumentException naming the first bad value and its allowed range */
        public RawTransferSpec build() {
            return new RawTransferSpec(Optional.ofNullable(tx), Optional.ofNullable(rx), etherTypes, frameSize, Optional.ofNullable(dst), Optional.ofNullable(src), rate,
                    duration, warmup, interval, batch, steer, allowUnsteered, hardwareTimestamps, retireTimeout, drainTimeout, txRing,
                    Optional.ofNullable(idle), endpoint, Optional.ofNullable(peerInterface), unpaced);
        }
    }

    /** @return {@link Pattern#RAW_FRAMES} */
    @Override
    public Pattern pattern() {
        return Pattern.RAW_FRAMES;
    }

    /** @return {@code raw} */
    @Override
    public String testName() {
        return "raw";
    }
}
