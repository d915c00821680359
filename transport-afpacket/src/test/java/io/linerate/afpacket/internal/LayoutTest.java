package io.linerate.afpacket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutTest {

    @Test
    void javaOffsetsAgreeWithTheKernelHeaders() {
        List<Integer> headers = Layout.fromNative();
        assertThat(headers).hasSameSizeAs(Layout.FIELDS);
        assertThat(Layout.mismatches()).isEmpty();
    }

    @Test
    void headerValuesTheIssueStatesForX8664() {
        List<Integer> headers = Layout.fromNative();
        assertThat(headers.get(index("sizeof(struct ethtool_rxnfc)"))).isEqualTo(192);
        assertThat(headers.get(index("offsetof(ethtool_rxnfc, rule_locs)"))).isEqualTo(188);
        assertThat(headers.get(index("sizeof(struct ethtool_rx_flow_spec)"))).isEqualTo(168);
        assertThat(headers.get(index("offsetof(ethtool_rx_flow_spec, ring_cookie)"))).isEqualTo(152);
        assertThat(headers.get(index("offsetof(ethtool_rx_flow_spec, location)"))).isEqualTo(160);
    }

    private static int index(String name) {
        for (int i = 0; i < Layout.FIELDS.size(); i++) {
            if (Layout.FIELDS.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError("no field " + name);
    }
}
