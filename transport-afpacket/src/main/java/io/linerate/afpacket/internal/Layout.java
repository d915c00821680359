package io.linerate.afpacket.internal;

import io.linerate.jni.LayoutCheck;
import io.linerate.jni.LayoutCheck.Field;
import java.util.List;

/**
 * Sizes and offsets of the kernel structures linerate encodes and decodes in Java, for x86-64.
 * Sources: {@code <linux/ethtool.h>} ({@code struct ethtool_rxnfc}, {@code ethtool_rx_flow_spec},
 * {@code ethtool_drvinfo}), {@code <linux/if_packet.h>} ({@code tpacket_block_desc},
 * {@code tpacket3_hdr}, {@code tpacket_stats_v3}), {@code <linux/net_tstamp.h>}
 * ({@code hwtstamp_config}) and {@code <poll.h>}. {@link #fromNative()} reads the same values
 * from {@code sizeof}/{@code offsetof} compiled against the build host's headers, and a test
 * asserts they agree ({@link LayoutCheck}).
 *
 * <p>Note: {@code rule_locs} starts at 188, not at {@code sizeof(struct ethtool_rxnfc)} (192):
 * the struct is padded to 8 bytes after the flexible array's start.
 */
public final class Layout {
    private Layout() {}

    // struct ethtool_rxnfc
    public static final int RXNFC_SIZE = 192;
    public static final int RXNFC_CMD = 0;
    public static final int RXNFC_FLOW_TYPE = 4;
    public static final int RXNFC_DATA = 8;
    public static final int RXNFC_FS = 16;
    public static final int RXNFC_RULE_CNT = 184;
    public static final int RXNFC_RULE_LOCS = 188;
    // struct ethtool_rx_flow_spec, relative to its start
    public static final int FS_SIZE = 168;
    public static final int FS_FLOW_TYPE = 0;
    public static final int FS_H_U = 4;
    public static final int FS_H_EXT = 56;
    public static final int FS_M_U = 76;
    public static final int FS_M_EXT = 128;
    public static final int FS_RING_COOKIE = 152;
    public static final int FS_LOCATION = 160;
    // struct ethhdr inside union ethtool_flow_union
    public static final int ETHER_DEST = 0;
    public static final int ETHER_SOURCE = 6;
    public static final int ETHER_PROTO = 12;
    // struct ethtool_drvinfo
    public static final int DRVINFO_SIZE = 196;
    public static final int DRVINFO_DRIVER = 4;
    public static final int DRVINFO_BUS_INFO = 100;
    // struct tpacket_block_desc
    public static final int BLOCK_STATUS = 8;
    public static final int BLOCK_NUM_PKTS = 12;
    public static final int BLOCK_FIRST_PKT = 16;
    // struct tpacket3_hdr
    public static final int PKT_NEXT_OFFSET = 0;
    public static final int PKT_SEC = 4;
    public static final int PKT_NSEC = 8;
    public static final int PKT_SNAPLEN = 12;
    public static final int PKT_LEN = 16;
    public static final int PKT_STATUS = 20;
    public static final int PKT_MAC = 24;
    // others
    public static final int STATS_V3_SIZE = 12;
    public static final int HWTSTAMP_SIZE = 12;
    public static final int HWTSTAMP_TX_TYPE = 4;
    public static final int HWTSTAMP_RX_FILTER = 8;
    public static final int POLLFD_SIZE = 8;
    // struct tpacket2_hdr (TX ring slots)
    public static final int TP2_SIZE = 32;
    public static final int TP2_STATUS = 0;
    public static final int TP2_LEN = 4;
    public static final int TP2_SNAPLEN = 8;
    public static final int TPACKET2_HDRLEN = 52;
    public static final int SOCKADDR_LL_SIZE = 20;
    /** Where frame data starts in a TX slot: TPACKET2_HDRLEN − sizeof(struct sockaddr_ll) (af_packet.c, tpacket_parse_header). */
    public static final int TX_DATA_OFFSET = TPACKET2_HDRLEN - SOCKADDR_LL_SIZE;

    /** The checked values, in the order the native {@code layout} function writes them. */
    public static final List<Field> FIELDS = List.of(
            new Field("sizeof(struct ethtool_rxnfc)", RXNFC_SIZE),
            new Field("offsetof(ethtool_rxnfc, cmd)", RXNFC_CMD),
            new Field("offsetof(ethtool_rxnfc, flow_type)", RXNFC_FLOW_TYPE),
            new Field("offsetof(ethtool_rxnfc, data)", RXNFC_DATA),
            new Field("offsetof(ethtool_rxnfc, fs)", RXNFC_FS),
            new Field("offsetof(ethtool_rxnfc, rule_cnt)", RXNFC_RULE_CNT),
            new Field("offsetof(ethtool_rxnfc, rule_locs)", RXNFC_RULE_LOCS),
            new Field("sizeof(struct ethtool_rx_flow_spec)", FS_SIZE),
            new Field("offsetof(ethtool_rx_flow_spec, flow_type)", FS_FLOW_TYPE),
            new Field("offsetof(ethtool_rx_flow_spec, h_u)", FS_H_U),
            new Field("offsetof(ethtool_rx_flow_spec, h_ext)", FS_H_EXT),
            new Field("offsetof(ethtool_rx_flow_spec, m_u)", FS_M_U),
            new Field("offsetof(ethtool_rx_flow_spec, m_ext)", FS_M_EXT),
            new Field("offsetof(ethtool_rx_flow_spec, ring_cookie)", FS_RING_COOKIE),
            new Field("offsetof(ethtool_rx_flow_spec, location)", FS_LOCATION),
            new Field("offsetof(ethtool_flow_union, ether_spec.h_dest)", ETHER_DEST),
            new Field("offsetof(ethtool_flow_union, ether_spec.h_source)", ETHER_SOURCE),
            new Field("offsetof(ethtool_flow_union, ether_spec.h_proto)", ETHER_PROTO),
            new Field("sizeof(struct ethtool_drvinfo)", DRVINFO_SIZE),
            new Field("offsetof(ethtool_drvinfo, driver)", DRVINFO_DRIVER),
            new Field("offsetof(ethtool_drvinfo, bus_info)", DRVINFO_BUS_INFO),
            new Field("offsetof(tpacket_block_desc, hdr.bh1.block_status)", BLOCK_STATUS),
            new Field("offsetof(tpacket_block_desc, hdr.bh1.num_pkts)", BLOCK_NUM_PKTS),
            new Field("offsetof(tpacket_block_desc, hdr.bh1.offset_to_first_pkt)", BLOCK_FIRST_PKT),
            new Field("offsetof(tpacket3_hdr, tp_next_offset)", PKT_NEXT_OFFSET),
            new Field("offsetof(tpacket3_hdr, tp_sec)", PKT_SEC),
            new Field("offsetof(tpacket3_hdr, tp_nsec)", PKT_NSEC),
            new Field("offsetof(tpacket3_hdr, tp_snaplen)", PKT_SNAPLEN),
            new Field("offsetof(tpacket3_hdr, tp_len)", PKT_LEN),
            new Field("offsetof(tpacket3_hdr, tp_status)", PKT_STATUS),
            new Field("offsetof(tpacket3_hdr, tp_mac)", PKT_MAC),
            new Field("sizeof(struct tpacket_stats_v3)", STATS_V3_SIZE),
            new Field("sizeof(struct hwtstamp_config)", HWTSTAMP_SIZE),
            new Field("offsetof(hwtstamp_config, tx_type)", HWTSTAMP_TX_TYPE),
            new Field("offsetof(hwtstamp_config, rx_filter)", HWTSTAMP_RX_FILTER),
            new Field("sizeof(struct pollfd)", POLLFD_SIZE),
            new Field("sizeof(struct tpacket2_hdr)", TP2_SIZE),
            new Field("offsetof(tpacket2_hdr, tp_status)", TP2_STATUS),
            new Field("offsetof(tpacket2_hdr, tp_len)", TP2_LEN),
            new Field("offsetof(tpacket2_hdr, tp_snaplen)", TP2_SNAPLEN),
            new Field("TPACKET2_HDRLEN", TPACKET2_HDRLEN),
            new Field("sizeof(struct sockaddr_ll)", SOCKADDR_LL_SIZE));

    /**
     * @return the values compiled from the kernel headers, in the order of {@link #FIELDS}
     * @throws UnsatisfiedLinkError if the native library cannot be loaded
     * @throws IllegalStateException if the native side lists a different number of values
     */
    public static List<Integer> fromNative() {
        Native.LIBRARY.ensureLoaded();
        return LayoutCheck.fromNative(FIELDS, (out, capacity) -> Native.layout(Native.address(out), capacity));
    }

    /**
     * @return a description of every value where Java and the headers disagree; empty when all agree
     */
    public static List<String> mismatches() {
        return LayoutCheck.mismatches(FIELDS, fromNative());
    }
}
