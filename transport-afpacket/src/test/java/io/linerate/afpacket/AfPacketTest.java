package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AfPacketTest {

    @Test
    void availabilityMatchesWhetherThisProcessMayOpenRawSockets() {
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            assertThat(AfPacket.unavailabilityCause()).isEmpty();
            assertThat(AfPacket.isAvailable()).isTrue();
        } else {
            assertThat(AfPacket.unavailabilityCause()).hasValueSatisfying(c -> assertThat(c).isNotBlank());
        }
    }

    @Test
    void errnoBecomesAMessageNamingInterfaceCallAndErrno() {
        AfPacketException e = new AfPacketException("veth0", "ETHTOOL_GRXCLSRLCNT", 95);
        assertThat(e.getMessage()).isEqualTo("ETHTOOL_GRXCLSRLCNT on veth0 failed: EOPNOTSUPP (Operation not supported)");
        assertThat(e.errno()).isEqualTo(95);
    }
}
