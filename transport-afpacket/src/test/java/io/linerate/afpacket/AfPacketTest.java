package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

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
    void theNativeLibraryAndJavaAgreeOnTheLargestBatch() {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.linerate.afpacket.internal.Native.LIBRARY.tryLoad() == null, "no native library");
        assertThat(io.linerate.afpacket.internal.Native.maxBatch()).isEqualTo(RawTransferSpec.MAX_BATCH).isEqualTo(1024);
        assertThat(AfPacket.batchMismatch(1024, 1024)).isNull();
        assertThat(AfPacket.batchMismatch(512, 1024)).isEqualTo("the native library takes at most 512 frames per send (MAX_BATCH) "
                + "but RawTransferSpec.MAX_BATCH is 1024; build the jar and its native library from the same sources");
    }

    @Test
    void errnoBecomesAMessageNamingInterfaceCallAndErrno() {
        AfPacketException e = new AfPacketException("veth0", "ETHTOOL_GRXCLSRLCNT", 95);
        assertThat(e.getMessage()).isEqualTo("ETHTOOL_GRXCLSRLCNT on veth0 failed: EOPNOTSUPP (Operation not supported)");
        assertThat(e.errno()).isEqualTo(95);
    }
}
