package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.afpacket.FakeRxnfcTable.Profile;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FlowSteeringTest {
    private static final byte[] ANY_MAC = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
    private static final byte[] OTHER_MAC = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};

    private static Ethtool on(FakeRxnfcTable t) {
        return new Ethtool("eth7", t);
    }

    @Test
    void allocatesTheHighestFreeLocationsAroundGapsAndLeavesForeignRulesAlone() throws Exception {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.I40E, 8, 4)
                .preinstall(7, 0x0800, 0).preinstall(5, 0x86dd, 1).preinstall(2, 0x88f7, 2);
        Map<Long, byte[]> before = t.snapshot();
        try (FlowSteering s = FlowSteering.install(on(t), List.of(
                FlowSteering.Request.of(0x88b5, 1), FlowSteering.Request.of(0x88b6, 2), FlowSteering.Request.of(0x88b7, 3)))) {
            assertThat(s.installed()).containsExactly(
                    new FlowSteering.Installed(6, 0x88b5, 1),
                    new FlowSteering.Installed(4, 0x88b6, 2),
                    new FlowSteering.Installed(3, 0x88b7, 3));
            assertThat(t.rules.keySet()).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
            assertThat(on(t).rule(4)).isEqualTo(new io.linerate.afpacket.internal.EthtoolCodec.Rule(0x12, 0x88b6, 0xffff, 2, 4));
        }
        assertThat(t.rules.keySet()).containsExactly(2L, 5L, 7L);
        t.rules.forEach((loc, fs) -> assertThat(fs).isEqualTo(before.get(loc)));
        assertThat(t.insertLocations).doesNotContain(FakeRxnfcTable.LOC_ANY);
    }

    @Test
    void maskPolarityMatchesTheEthertypeAndIgnoresBothMacs() throws Exception {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.ICE, 16, 4);
        try (FlowSteering s = FlowSteering.install(on(t), List.of(FlowSteering.Request.of(0x88b5, 3)))) {
            assertThat(t.steer(ANY_MAC, OTHER_MAC, 0x88b5)).isEqualTo(3);
            assertThat(t.steer(OTHER_MAC, ANY_MAC, 0x88b5)).isEqualTo(3);
            assertThat(t.steer(ANY_MAC, OTHER_MAC, 0x88b6)).isEqualTo(-1);
            assertThat(t.steer(ANY_MAC, ANY_MAC, 0x0800)).isEqualTo(-1);
        }
    }

    @Test
    void aFullTableIsAClearErrorAndNothingIsTouched() {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.IXGBE, 3, 2)
                .preinstall(0, 0x0800, 0).preinstall(1, 0x0806, 0).preinstall(2, 0x86dd, 1);
        Map<Long, byte[]> before = t.snapshot();
        assertThatThrownBy(() -> FlowSteering.install(on(t), List.of(FlowSteering.Request.of(0x88b5, 1))))
                .isInstanceOf(AfPacketException.class)
                .hasMessageContaining("eth7")
                .hasMessageContaining("full (3 of 3 locations used)")
                .satisfies(e -> assertThat(((AfPacketException) e).isUsageError()).isTrue());
        assertThat(t.insertLocations).isEmpty();
        assertThat(t.snapshot().keySet()).isEqualTo(before.keySet());
    }

    @Test
    void theLastFreeLocationIsFoundWhenOnlyLocationZeroIsLeft() throws Exception {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.IGB, 3, 2).preinstall(1, 0x0800, 0).preinstall(2, 0x0806, 0);
        try (FlowSteering s = FlowSteering.install(on(t), List.of(FlowSteering.Request.of(0x88b5, 1)))) {
            assertThat(s.installed()).extracting(FlowSteering.Installed::location).containsExactly(0L);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Profile.class, names = {"ICE", "MLX5", "I40E", "IXGBE", "IGB"})
    void driversWithoutSpecialLocationsGetExplicitOnesAndWouldRefuseLocAny(Profile p) throws Exception {
        FakeRxnfcTable t = new FakeRxnfcTable(p, 64, 4);
        try (FlowSteering s = FlowSteering.install(on(t), List.of(FlowSteering.Request.of(0x88b5, 1), FlowSteering.Request.of(0x88b6, 2)))) {
            assertThat(s.installed()).extracting(FlowSteering.Installed::location).containsExactly(63L, 62L);
        }
        assertThat(t.insertLocations).containsExactly(63L, 62L);
        assertThat(t.rules).isEmpty();
        // What would have happened with RX_CLS_LOC_ANY: the facts each profile encodes.
        int expected = (p == Profile.ICE || p == Profile.MLX5) ? 28 : 22;
        assertThatThrownBy(() -> on(t).insertEtherTypeRule(0x88b5, 1, 0xffffffffL))
                .isInstanceOfSatisfying(AfPacketException.class, e -> assertThat(e.errno()).isEqualTo(expected))
                .hasMessageContaining("ETHTOOL_SRXCLSRLINS on eth7 failed");
    }

    @Test
    void aDriverAdvertisingSpecialLocationsChoosesAndTheChoiceIsRemembered() throws Exception {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.SPECIAL, 16, 4).preinstall(0, 0x0800, 0);
        try (FlowSteering s = FlowSteering.install(on(t), List.of(FlowSteering.Request.of(0x88b5, 1), FlowSteering.Request.of(0x88b6, 2)))) {
            assertThat(t.insertLocations).containsExactly(FakeRxnfcTable.LOC_ANY, FakeRxnfcTable.LOC_ANY);
            assertThat(s.installed()).extracting(FlowSteering.Installed::location).containsExactly(1L, 2L);
        }
        assertThat(t.rules.keySet()).containsExactly(0L);
    }

    @Test
    void aFailureHalfwayRemovesWhatWasInstalledAndOnlyThat() {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.ICE, 32, 4).preinstall(31, 0x0800, 0).preinstall(20, 0x0806, 1)
                .failInsert(3, 12);
        Map<Long, byte[]> before = t.snapshot();
        assertThatThrownBy(() -> FlowSteering.install(on(t), List.of(
                FlowSteering.Request.of(0x88b5, 1), FlowSteering.Request.of(0x88b6, 2), FlowSteering.Request.of(0x88b7, 3))))
                .isInstanceOf(AfPacketException.class)
                .hasMessageStartingWith("ETHTOOL_SRXCLSRLINS on eth7 failed: ENOMEM");
        assertThat(t.insertLocations).containsExactly(30L, 29L, 28L);
        assertThat(t.rules.keySet()).isEqualTo(before.keySet());
        t.rules.forEach((loc, fs) -> assertThat(fs).isEqualTo(before.get(loc)));
    }

    @Test
    void aFailedDeletionDuringCleanupIsAttachedAndTheOthersAreStillDeleted() {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.I40E, 8, 4).failInsert(3, 5).failDelete(7, 16);
        assertThatThrownBy(() -> FlowSteering.install(on(t), List.of(
                FlowSteering.Request.of(0x88b5, 1), FlowSteering.Request.of(0x88b6, 1), FlowSteering.Request.of(0x88b7, 1))))
                .hasMessageContaining("EIO")
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .satisfies(s -> assertThat(s).hasMessageContaining("ETHTOOL_SRXCLSRLDEL on eth7 failed: EBUSY")));
        assertThat(t.rules.keySet()).containsExactly(7L);
    }

    @Test
    void anExplicitLocationThatIsTakenIsRefusedBeforeAnythingIsWritten() {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.IXGBE, 16, 4).preinstall(5, 0x0800, 0);
        assertThatThrownBy(() -> FlowSteering.install(on(t), List.of(
                FlowSteering.Request.of(0x88b5, 1), new FlowSteering.Request(0x88b6, 1, OptionalLong.of(5)))))
                .hasMessageContaining("rule location 5 is taken")
                .satisfies(e -> assertThat(((AfPacketException) e).isUsageError()).isTrue());
        assertThat(t.rules.keySet()).containsExactly(5L);
        assertThatThrownBy(() -> FlowSteering.install(on(t), List.of(new FlowSteering.Request(0x88b6, 1, OptionalLong.of(16)))))
                .hasMessageContaining("rule location 16 is out of range; allowed: 0..15");
    }

    @Test
    void aQueueThatDoesNotExistIsAUsageError() {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.ICE, 16, 4);
        assertThatThrownBy(() -> FlowSteering.install(on(t), List.of(FlowSteering.Request.of(0x88b5, 4))))
                .hasMessageContaining("queue 4 for ethertype 0x88b5 does not exist; allowed: 0..3");
        assertThat(t.insertLocations).isEmpty();
    }

    @Test
    void vethNamesTheInterfaceAndItsDriver() {
        FakeRxnfcTable t = new FakeRxnfcTable(Profile.VETH, 0, 1);
        assertThatThrownBy(() -> FlowSteering.install(on(t), List.of(FlowSteering.Request.of(0x88b5, 0))))
                .isInstanceOfSatisfying(SteeringUnsupportedException.class, e -> assertThat(e.driver()).isEqualTo("veth"))
                .hasMessageContaining("on eth7 failed: EOPNOTSUPP")
                .hasMessageContaining("driver veth");
    }

    @Test
    void ethertypesBelow0x0600AreRefused() {
        assertThatThrownBy(() -> FlowSteering.Request.of(0x05ff, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ethertype 0x05ff is out of range; allowed: 0x0600..0xffff");
    }
}
