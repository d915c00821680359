package io.linerate.peers.iperf2;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The layouts of iperf 2's UDP datagram header that clients send. iperf 2 negotiates nothing: a
 * server tells them apart by the words after the sequence number, all big-endian.
 *
 * <ul>
 *   <li>{@link #SEQ64}: current iperf 2 (2.0.10 and later, Debian's 2.1.8): 16 bytes, the 32-bit id
 *       (low word of the sequence number), tv_sec, tv_usec, then the id's upper word; the client
 *       header after it carries the flag {@code HEADER_SEQNO64B} (0x08000000), which says the upper
 *       word is valid.</li>
 *   <li>{@link #SEQ32}: Zephyr's zperf and iperf 2 without 64-bit sequence numbers: the same 16
 *       bytes, but the client header's flags are 0 (zperf) or lack {@code HEADER_SEQNO64B}, so the
 *       fourth word is not part of the id (zperf leaves its fill bytes there).</li>
 *   <li>{@link #LEGACY}: iperf 2.0.5 and older and early zperf: 12 bytes (id, tv_sec, tv_usec),
 *       the client header, when there is one, right after them.</li>
 * </ul>
 * A datagram's id counts from 1; the last one carries the negated id (-(last + 1)) and asks the
 * server for its report, which starts after a header of the same length.
 */
public enum Iperf2HeaderVariant {
    /** 16 bytes, 64-bit sequence number flagged by {@code HEADER_SEQNO64B}: what Debian's iperf 2 sends and expects. */
    SEQ64(16, "current iperf 2 (2.0.10 and later): 16-byte header, 64-bit id flagged in the client header"),
    /** 16 bytes, 32-bit sequence number: zperf. */
    SEQ32(16, "zperf, or iperf 2 without 64-bit ids: 16-byte header, 32-bit id, client header flags without HEADER_SEQNO64B"),
    /** 12 bytes, 32-bit sequence number: iperf 2.0.5 and older, early zperf. */
    LEGACY(12, "iperf 2.0.5 and older, early zperf: 12-byte header, 32-bit id");

    /**
     * Client header flag: version 1 fields present, which asks for a dual ({@code -d}) or tradeoff
     * ({@code -r}) test: the server is to connect back to the client.
     */
    public static final int HEADER_VERSION1 = 0x80000000;
    /** Client header flag: extended fields follow. */
    public static final int HEADER_EXTEND = 0x40000000;
    /** Client header flag, with {@code HEADER_VERSION1}: the server's test back runs now (dual, {@code -d}), not after (tradeoff, {@code -r}). */
    public static final int RUN_NOW = 0x00000001;
    /** Client header flag: the datagram header's fourth word is the id's upper 32 bits. */
    public static final int HEADER_SEQNO64B = 0x08000000;

    private final int headerBytes;
    private final String description;

    Iperf2HeaderVariant(int headerBytes, String description) {
        this.headerBytes = headerBytes;
        this.description = description;
    }

    /** @return bytes of the datagram header: 16 or 12; the client header and the server report start here */
    public int headerBytes() {
        return headerBytes;
    }

    /** @return which clients send this layout */
    public String description() {
        return description;
    }

    /** @return the name {@code --iperf2-header} takes: seq64, seq32, legacy */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @return the variant named {@code name} (seq64, seq32 or legacy, any case)
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Iperf2HeaderVariant parse(String name) {
        for (Iperf2HeaderVariant v : values()) {
            if (v.cliName().equalsIgnoreCase(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("iperf 2 header '" + name + "' is not known; allowed: seq64, seq32, legacy");
    }

    /**
     * Tells a received datagram's layout from its bytes at absolute offsets 0.. (position and limit
     * of {@code buf} are the datagram; neither is changed). A pure function, allocation-free:
     * <ul>
     *   <li>the word at offset 16 has {@code HEADER_SEQNO64B} set: {@link #SEQ64};</li>
     *   <li>it is 0 and the next word (the client header's thread count) is 1, or it has
     *       {@code HEADER_VERSION1} or {@code HEADER_EXTEND} set: {@link #SEQ32} (a client header at 16);</li>
     *   <li>otherwise, or shorter than 24 bytes: {@link #LEGACY} (old clients put a client header
     *       at 12, whose thread count 1 is then the word at 16, or payload fill).</li>
     * </ul>
     *
     * @param buf a datagram, its bytes from index 0 to {@code buf.limit()}
     * @return the variant; {@link #LEGACY} for anything that is not recognisably 16-byte
     */
    public static Iperf2HeaderVariant detect(ByteBuffer buf) {
        if (buf.limit() < 24) {
            return LEGACY;
        }
        int flags = buf.getInt(16);
        if ((flags & HEADER_SEQNO64B) != 0) {
            return SEQ64;
        }
        if ((flags == 0 && buf.getInt(20) == 1) || (flags & (HEADER_VERSION1 | HEADER_EXTEND)) != 0) {
            return SEQ32;
        }
        return LEGACY;
    }
}
