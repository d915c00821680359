package io.linerate.afpacket.internal;

import static io.linerate.afpacket.internal.Layout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Encodes and decodes SIOCETHTOOL requests as {@code <linux/ethtool.h>} lays them out, in direct
 * buffers in native byte order. Offsets come from {@link Layout}, which a test checks against the
 * headers. Multi-byte fields inside {@code struct ethhdr} (the ethertype) are big-endian, as on
 * the wire.
 */
public final class EthtoolCodec {
    private EthtoolCodec() {}

    // Commands, <linux/ethtool.h>
    public static final int ETHTOOL_GDRVINFO = 0x03;
    public static final int ETHTOOL_GRXRINGS = 0x2d;
    public static final int ETHTOOL_GRXCLSRLCNT = 0x2e;
    public static final int ETHTOOL_GRXCLSRULE = 0x2f;
    public static final int ETHTOOL_GRXCLSRLALL = 0x30;
    public static final int ETHTOOL_SRXCLSRLDEL = 0x31;
    public static final int ETHTOOL_SRXCLSRLINS = 0x32;
    /** Flow type matching the Ethernet header. */
    public static final int ETHER_FLOW = 0x12;
    /** Flag in the table size of GRXCLSRLCNT: the driver accepts special locations. */
    public static final long RX_CLS_LOC_SPECIAL = 0x80000000L;
    /** Special location: let the driver choose. */
    public static final long RX_CLS_LOC_ANY = 0xffffffffL;
    /** Flag bits of flow_type (FLOW_EXT, FLOW_MAC_EXT, FLOW_RSS) to strip before comparing. */
    public static final int FLOW_TYPE_FLAGS = 0x80000000 | 0x40000000 | 0x20000000;

    /** @return the name of an ethtool command, such as {@code ETHTOOL_GRXRINGS} */
    public static String commandName(int cmd) {
        return switch (cmd) {
            case ETHTOOL_GDRVINFO -> "ETHTOOL_GDRVINFO";
            case ETHTOOL_GRXRINGS -> "ETHTOOL_GRXRINGS";
            case ETHTOOL_GRXCLSRLCNT -> "ETHTOOL_GRXCLSRLCNT";
            case ETHTOOL_GRXCLSRULE -> "ETHTOOL_GRXCLSRULE";
            case ETHTOOL_GRXCLSRLALL -> "ETHTOOL_GRXCLSRLALL";
            case ETHTOOL_SRXCLSRLDEL -> "ETHTOOL_SRXCLSRLDEL";
            case ETHTOOL_SRXCLSRLINS -> "ETHTOOL_SRXCLSRLINS";
            default -> "ethtool command 0x" + Integer.toHexString(cmd);
        };
    }

    static ByteBuffer rxnfc(int cmd, int bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        b.putInt(RXNFC_CMD, cmd);
        return b;
    }

    /** @return an ETHTOOL_GRXRINGS request; the answer is in {@link #data} */
    public static ByteBuffer ringsRequest() {
        return rxnfc(ETHTOOL_GRXRINGS, RXNFC_SIZE);
    }

    /** @return an ETHTOOL_GRXCLSRLCNT request; answers: {@link #ruleCount}, {@link #data} (table size and flags) */
    public static ByteBuffer ruleCountRequest() {
        return rxnfc(ETHTOOL_GRXCLSRLCNT, RXNFC_SIZE);
    }

    /**
     * @param tableSize the table size from GRXCLSRLCNT, without flags
     * @param count room for this many locations ({@code rule_locs} starts at {@value Layout#RXNFC_RULE_LOCS})
     * @return an ETHTOOL_GRXCLSRLALL request; answers: {@link #ruleCount}, {@link #ruleLocation}
     */
    public static ByteBuffer ruleLocationsRequest(long tableSize, int count) {
        ByteBuffer b = rxnfc(ETHTOOL_GRXCLSRLALL, Math.max(RXNFC_SIZE, RXNFC_RULE_LOCS + 4 * count));
        b.putLong(RXNFC_DATA, tableSize);
        b.putInt(RXNFC_RULE_CNT, count);
        return b;
    }

    /** @return an ETHTOOL_GRXCLSRULE request for the rule at {@code location}; answer via {@link #decodeRule} */
    public static ByteBuffer getRuleRequest(long location) {
        ByteBuffer b = rxnfc(ETHTOOL_GRXCLSRULE, RXNFC_SIZE);
        b.putInt(RXNFC_FS + FS_LOCATION, (int) location);
        return b;
    }

    /** @return an ETHTOOL_SRXCLSRLDEL request for the rule at {@code location} */
    public static ByteBuffer deleteRequest(long location) {
        ByteBuffer b = rxnfc(ETHTOOL_SRXCLSRLDEL, RXNFC_SIZE);
        b.putInt(RXNFC_FS + FS_LOCATION, (int) location);
        return b;
    }

    /**
     * An ETHTOOL_SRXCLSRLINS request for an ETHER_FLOW rule that compares the ethertype only and
     * steers to {@code queue}. In the ioctl a set mask bit means "compare this bit": the MAC masks
     * stay 00 x 6 and the protocol mask is ff ff. ({@code ethtool -n} prints the complement.)
     *
     * @param etherType 0x0600..0xffff
     * @param queue RX queue index, written to {@code ring_cookie}
     * @param location the rule location, or {@link #RX_CLS_LOC_ANY}
     */
    public static ByteBuffer insertRequest(int etherType, long queue, long location) {
        ByteBuffer b = rxnfc(ETHTOOL_SRXCLSRLINS, RXNFC_SIZE);
        int fs = RXNFC_FS;
        b.putInt(fs + FS_FLOW_TYPE, ETHER_FLOW);
        b.put(fs + FS_H_U + ETHER_PROTO, (byte) (etherType >>> 8));
        b.put(fs + FS_H_U + ETHER_PROTO + 1, (byte) etherType);
        b.put(fs + FS_M_U + ETHER_PROTO, (byte) 0xff);
        b.put(fs + FS_M_U + ETHER_PROTO + 1, (byte) 0xff);
        b.putLong(fs + FS_RING_COOKIE, queue);
        b.putInt(fs + FS_LOCATION, (int) location);
        return b;
    }

    /** @return an ETHTOOL_GDRVINFO request; answer via {@link #driver} */
    public static ByteBuffer driverInfoRequest() {
        ByteBuffer b = ByteBuffer.allocateDirect(DRVINFO_SIZE).order(ByteOrder.nativeOrder());
        b.putInt(0, ETHTOOL_GDRVINFO);
        return b;
    }

    /** @return the u64 {@code data} field */
    public static long data(ByteBuffer rxnfc) {
        return rxnfc.getLong(RXNFC_DATA);
    }

    /** @return the u32 {@code rule_cnt} field */
    public static long ruleCount(ByteBuffer rxnfc) {
        return Integer.toUnsignedLong(rxnfc.getInt(RXNFC_RULE_CNT));
    }

    /** @return {@code rule_locs[i]} */
    public static long ruleLocation(ByteBuffer rxnfc, int i) {
        return Integer.toUnsignedLong(rxnfc.getInt(RXNFC_RULE_LOCS + 4 * i));
    }

    /** @return {@code fs.location} */
    public static long location(ByteBuffer rxnfc) {
        return Integer.toUnsignedLong(rxnfc.getInt(RXNFC_FS + FS_LOCATION));
    }

    /** A decoded rule: flow type without flag bits, ethertype and its mask, ring cookie, location. */
    public record Rule(int flowType, int etherType, int etherTypeMask, long ringCookie, long location) {}

    /** @return the rule in {@code fs} of an answered GRXCLSRULE (or an encoded SRXCLSRLINS) */
    public static Rule decodeRule(ByteBuffer rxnfc) {
        int fs = RXNFC_FS;
        int type = rxnfc.getInt(fs + FS_FLOW_TYPE) & ~FLOW_TYPE_FLAGS;
        int proto = ((rxnfc.get(fs + FS_H_U + ETHER_PROTO) & 0xff) << 8) | (rxnfc.get(fs + FS_H_U + ETHER_PROTO + 1) & 0xff);
        int mask = ((rxnfc.get(fs + FS_M_U + ETHER_PROTO) & 0xff) << 8) | (rxnfc.get(fs + FS_M_U + ETHER_PROTO + 1) & 0xff);
        return new Rule(type, proto, mask, rxnfc.getLong(fs + FS_RING_COOKIE), location(rxnfc));
    }

    /** @return the driver name of an answered GDRVINFO */
    public static String driver(ByteBuffer drvinfo) {
        byte[] b = new byte[32];
        drvinfo.get(DRVINFO_DRIVER, b);
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }
}
