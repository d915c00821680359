package io.linerate.afpacket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Encoder output against bytes written out by hand from {@code <linux/ethtool.h>} (x86-64). */
class EthtoolCodecTest {

    private static byte[] hex(String text) {
        String s = text.replaceAll("[^0-9a-fA-F]", "");
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.capacity()];
        b.duplicate().clear().get(out);
        return out;
    }

    @Test
    void insertEtherFlowRuleComparesTheEthertypeOnly() {
        // ETHTOOL_SRXCLSRLINS, ethertype 0x88b5 to queue 3 at location 1023.
        byte[] expected = hex("""
                32 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                12 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                88 b5 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  ff ff 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                00 00 00 00 00 00 00 00  03 00 00 00 00 00 00 00
                ff 03 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                """);
        ByteBuffer req = EthtoolCodec.insertRequest(0x88b5, 3, 1023);
        assertThat(req.isDirect()).isTrue();
        assertThat(req.order()).isEqualTo(ByteOrder.nativeOrder());
        assertThat(bytes(req)).isEqualTo(expected);
    }

    @Test
    void insertAtAnyLocationWritesAllOnes() {
        ByteBuffer req = EthtoolCodec.insertRequest(0x0800, 0, 0xffffffffL);
        byte[] b = bytes(req);
        assertThat(new byte[] {b[176], b[177], b[178], b[179]}).isEqualTo(hex("ff ff ff ff"));
        assertThat(new byte[] {b[32], b[33]}).isEqualTo(hex("08 00"));
    }

    @Test
    void deleteRequest() {
        byte[] expected = new byte[192];
        expected[0] = 0x31;
        expected[176] = 0x07;
        expected[177] = 0x01;
        assertThat(bytes(EthtoolCodec.deleteRequest(0x107))).isEqualTo(expected);
    }

    @Test
    void getRuleRequest() {
        byte[] expected = new byte[192];
        expected[0] = 0x2f;
        expected[176] = 0x05;
        assertThat(bytes(EthtoolCodec.getRuleRequest(5))).isEqualTo(expected);
    }

    @Test
    void ruleCountAndRingsRequestsCarryOnlyTheCommand() {
        byte[] cnt = new byte[192];
        cnt[0] = 0x2e;
        assertThat(bytes(EthtoolCodec.ruleCountRequest())).isEqualTo(cnt);
        byte[] rings = new byte[192];
        rings[0] = 0x2d;
        assertThat(bytes(EthtoolCodec.ringsRequest())).isEqualTo(rings);
    }

    @Test
    void ruleLocationsRequestPutsTheArrayAt188() {
        // GRXCLSRLALL for a 512-entry table with room for 3 locations: 188 + 3 * 4 = 200 bytes;
        // bytes 16..183 are zero, rule_cnt = 3 at 184, rule_locs (zero) at 188..199.
        byte[] expected = hex("""
                30 00 00 00 00 00 00 00  00 02 00 00 00 00 00 00
                """ + "00 ".repeat(168) + """
                03 00 00 00  00 00 00 00 00 00 00 00 00 00 00 00
                """);
        ByteBuffer req = EthtoolCodec.ruleLocationsRequest(512, 3);
        assertThat(req.capacity()).isEqualTo(200);
        assertThat(bytes(req)).isEqualTo(expected);
        // A small request still covers the whole struct the kernel copies in.
        assertThat(EthtoolCodec.ruleLocationsRequest(512, 1).capacity()).isEqualTo(192);
    }

    @Test
    void decodersReadTheKernelsAnswer() {
        ByteBuffer ans = EthtoolCodec.ruleLocationsRequest(0, 2);
        ans.putLong(8, 0x80000400L);
        ans.putInt(184, 2);
        ans.putInt(188, 9);
        ans.putInt(192, 0xfffffffe);
        assertThat(EthtoolCodec.data(ans)).isEqualTo(0x80000400L);
        assertThat(EthtoolCodec.ruleCount(ans)).isEqualTo(2);
        assertThat(EthtoolCodec.ruleLocation(ans, 0)).isEqualTo(9);
        assertThat(EthtoolCodec.ruleLocation(ans, 1)).isEqualTo(0xfffffffeL);

        EthtoolCodec.Rule r = EthtoolCodec.decodeRule(EthtoolCodec.insertRequest(0x88b6, 2, 40));
        assertThat(r).isEqualTo(new EthtoolCodec.Rule(0x12, 0x88b6, 0xffff, 2, 40));
    }

    @Test
    void driverInfo() {
        ByteBuffer b = EthtoolCodec.driverInfoRequest();
        assertThat(b.capacity()).isEqualTo(196);
        assertThat(b.getInt(0)).isEqualTo(3);
        byte[] name = "ixgbe".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i < name.length; i++) {
            b.put(4 + i, name[i]);
        }
        assertThat(EthtoolCodec.driver(b)).isEqualTo("ixgbe");
    }
}
