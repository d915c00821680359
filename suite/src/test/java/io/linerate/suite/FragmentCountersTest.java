package io.linerate.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FragmentCountersTest {

    @Test
    void parsesTheIpLinesOfProcNetSnmp() {
        List<String> lines = List.of(
                "Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams InUnknownProtos InDiscards "
                        + "InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails "
                        + "FragOKs FragFails FragCreates",
                "Ip: 1 64 1000 0 0 0 0 0 990 980 0 0 0 40 20 0 20 0 40",
                "Icmp: InMsgs InErrors",
                "Icmp: 0 0");
        assertThat(FragmentCounters.parseSnmp(lines)).isEqualTo(new FragmentCounters(40, 20));
    }

    @Test
    void parsesProcNetSnmp6() {
        List<String> lines = List.of("Ip6InReceives                   \t12", "Ip6ReasmOKs                     \t7",
                "Ip6FragCreates                  \t14", "Icmp6InMsgs 0");
        assertThat(FragmentCounters.parseSnmp6(lines)).isEqualTo(new FragmentCounters(14, 7));
    }

    @Test
    void missingFieldsAreAnError() {
        assertThatThrownBy(() -> FragmentCounters.parseSnmp(List.of("Ip: Forwarding", "Ip: 1")))
                .hasMessage("no FragCreates field in the Ip: lines of /proc/net/snmp");
        assertThatThrownBy(() -> FragmentCounters.parseSnmp6(List.of()))
                .hasMessage("no Ip6FragCreates/Ip6ReasmOKs in /proc/net/snmp6");
    }
}
