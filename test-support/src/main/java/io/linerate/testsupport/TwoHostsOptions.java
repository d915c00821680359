package io.linerate.testsupport;

import java.util.Optional;

/**
 * How {@link TwoHosts} builds its link: the veth pair's MTU and optional {@code tc tbf} shaping.
 * Made by {@link #builder()}; {@link Builder#build()} checks every value and names it and its
 * allowed range when it is out of range.
 *
 * @param mtu MTU of both veth ends in bytes (IP packet, without the 14-byte Ethernet header)
 * @param shaping the tbf qdisc on both ends' egress, or empty for an unshaped link
 */
public record TwoHostsOptions(int mtu, Optional<Tbf> shaping) {
    /** Default MTU, Ethernet's. */
    public static final int DEFAULT_MTU = 1500;
    /** Smallest MTU: IPv6's minimum link MTU (RFC 8200 section 5). */
    public static final int MIN_MTU = 1280;
    /** Largest MTU a veth takes (the kernel's ETH_MAX_MTU). */
    public static final int MAX_MTU = 65535;
    /** Ethernet header bytes a veth frame carries in front of the IP packet, which tbf counts. */
    public static final int ETHERNET_HEADER_BYTES = 14;

    /** @return options with the defaults: MTU {@value #DEFAULT_MTU}, no shaping */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A token bucket filter ({@code tc qdisc add dev IF root tbf rate R burst B limit L}, tc-tbf(8)).
     *
     * @param rateBitsPerSecond rate in bits/s, 1000..10^12 (1 kbit/s..1 Tbit/s)
     * @param burstBytes bucket size in bytes, at least one whole frame (MTU + 14) and at most 2^30
     * @param limitBytes bytes that may queue waiting for tokens, at least one whole frame and at most 2^30
     */
    public record Tbf(long rateBitsPerSecond, int burstBytes, int limitBytes) {
        /** Smallest rate, bits/s. */
        public static final long MIN_RATE = 1_000L;
        /** Largest rate, bits/s. */
        public static final long MAX_RATE = 1_000_000_000_000L;
        /** Largest burst and limit, bytes. */
        public static final int MAX_BYTES = 1 << 30;

        /** @throws IllegalArgumentException naming the value and its range when one is out of range */
        public Tbf {
            if (rateBitsPerSecond < MIN_RATE || rateBitsPerSecond > MAX_RATE) {
                throw new IllegalArgumentException("tbf rate " + rateBitsPerSecond + " bit/s is out of range; allowed: "
                        + MIN_RATE + ".." + MAX_RATE + " bit/s");
            }
            if (burstBytes < 1 || burstBytes > MAX_BYTES) {
                throw new IllegalArgumentException("tbf burst " + burstBytes + " bytes is out of range; allowed: 1.."
                        + MAX_BYTES + " bytes, and at least one frame (MTU + " + ETHERNET_HEADER_BYTES + ")");
            }
            if (limitBytes < 1 || limitBytes > MAX_BYTES) {
                throw new IllegalArgumentException("tbf limit " + limitBytes + " bytes is out of range; allowed: 1.."
                        + MAX_BYTES + " bytes, and at least one frame (MTU + " + ETHERNET_HEADER_BYTES + ")");
            }
        }
    }

    /** @throws IllegalArgumentException naming the value and its range when one is out of range */
    public TwoHostsOptions {
        if (mtu < MIN_MTU || mtu > MAX_MTU) {
            throw new IllegalArgumentException("MTU " + mtu + " bytes is out of range; allowed: " + MIN_MTU
                    + " (IPv6's minimum).." + MAX_MTU + " (veth's maximum)");
        }
        if (shaping == null) {
            throw new IllegalArgumentException("shaping is null; allowed: a Tbf or Optional.empty()");
        }
        int frame = mtu + ETHERNET_HEADER_BYTES;
        if (shaping.isPresent() && shaping.get().burstBytes() < frame) {
            // tbf drops every packet bigger than its bucket, so a smaller burst would carry no full frame
            throw new IllegalArgumentException("tbf burst " + shaping.get().burstBytes() + " bytes is out of range; "
                    + "allowed: " + frame + " (MTU " + mtu + " + " + ETHERNET_HEADER_BYTES + ").." + Tbf.MAX_BYTES + " bytes");
        }
        if (shaping.isPresent() && shaping.get().limitBytes() < frame) {
            throw new IllegalArgumentException("tbf limit " + shaping.get().limitBytes() + " bytes is out of range; "
                    + "allowed: " + frame + " (MTU " + mtu + " + " + ETHERNET_HEADER_BYTES + ").." + Tbf.MAX_BYTES + " bytes");
        }
    }

    /** Collects options; {@link #build()} checks them. */
    public static final class Builder {
        private int mtu = DEFAULT_MTU;
        private boolean shaped;
        private long rate;
        private int burst;
        private int limit;

        private Builder() {}

        /** @param bytes MTU of both veth ends, {@value #MIN_MTU}..{@value #MAX_MTU} bytes */
        public Builder mtu(int bytes) {
            this.mtu = bytes;
            return this;
        }

        /**
         * Shapes both directions of the link with tbf.
         *
         * @param rateBitsPerSecond rate in bits/s, 1000..10^12
         * @param burstBytes bucket size, MTU + 14..2^30 bytes
         * @param limitBytes queue limit, MTU + 14..2^30 bytes
         */
        public Builder tbf(long rateBitsPerSecond, int burstBytes, int limitBytes) {
            this.shaped = true;
            this.rate = rateBitsPerSecond;
            this.burst = burstBytes;
            this.limit = limitBytes;
            return this;
        }

        /**
         * @return the options
         * @throws IllegalArgumentException naming the value and its range when one is out of range
         */
        public TwoHostsOptions build() {
            return new TwoHostsOptions(mtu, shaped ? Optional.of(new Tbf(rate, burst, limit)) : Optional.empty());
        }
    }
}
