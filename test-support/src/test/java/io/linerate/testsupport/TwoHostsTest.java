package io.linerate.testsupport;

import static io.linerate.testsupport.NamespaceLeftovers.awaitEmpty;
import static io.linerate.testsupport.NamespaceLeftovers.awaitExited;
import static io.linerate.testsupport.NamespaceLeftovers.heldDescriptors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.netns.NamespaceProcess;
import io.linerate.netns.NetworkNamespace;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two hosts from namespaces: their link carries bytes with its MTU and tbf, and nothing of them outlives close or SIGKILL. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TwoHostsTest {
    /** Bound on each command run in a host and on each wait for what close leaves behind. */
    private static final Duration T = Duration.ofSeconds(60);
    /** 4 MiB = 4 x 1024 x 1024 bytes. */
    private static final long BYTES = 4_194_304L;

    private static void assumeTwoHosts(TwoHostsOptions options) {
        Optional<String> why = TwoHosts.unavailableReason(options);
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
    }

    @Test
    void optionsOutOfRangeAreRefusedWithValueAndRange() {
        assertThat(TwoHostsOptions.builder().build()).isEqualTo(new TwoHostsOptions(1500, Optional.empty()));
        assertThatThrownBy(() -> TwoHostsOptions.builder().mtu(1279).build())
                .hasMessage("MTU 1279 bytes is out of range; allowed: 1280 (IPv6's minimum)..65535 (veth's maximum)");
        assertThatThrownBy(() -> TwoHostsOptions.builder().mtu(65536).build())
                .hasMessage("MTU 65536 bytes is out of range; allowed: 1280 (IPv6's minimum)..65535 (veth's maximum)");
        assertThatThrownBy(() -> TwoHostsOptions.builder().tbf(999, 100_000, 100_000).build())
                .hasMessage("tbf rate 999 bit/s is out of range; allowed: 1000..1000000000000 bit/s");
        assertThatThrownBy(() -> TwoHostsOptions.builder().tbf(1_000_000, 0, 100_000).build())
                .hasMessage("tbf burst 0 bytes is out of range; allowed: 1..1073741824 bytes, and at least one frame (MTU + 14)");
        // a 1500-byte packet is a 1500 + 14 = 1514-byte frame on the veth, and tbf drops what exceeds its bucket
        assertThatThrownBy(() -> TwoHostsOptions.builder().tbf(1_000_000, 1513, 100_000).build())
                .hasMessage("tbf burst 1513 bytes is out of range; allowed: 1514 (MTU 1500 + 14)..1073741824 bytes");
        assertThatThrownBy(() -> TwoHostsOptions.builder().mtu(9000).tbf(1_000_000, 100_000, 9013).build())
                .hasMessage("tbf limit 9013 bytes is out of range; allowed: 9014 (MTU 9000 + 14)..1073741824 bytes");
        assertThat(TwoHostsOptions.builder().tbf(1_000_000, 1514, 1514).build().shaping())
                .contains(new TwoHostsOptions.Tbf(1_000_000, 1514, 1514));
    }

    @Test
    void aTcpConnectionBetweenTheHostsCarriesEveryByteOverTheShapedLink() throws Exception {
        // 200 Mbit/s, a 32000-byte bucket and 200000 bytes of queue, on a 1400-byte MTU
        TwoHostsOptions options = TwoHostsOptions.builder().mtu(1400).tbf(200_000_000L, 32_000, 200_000).build();
        assumeTwoHosts(options);
        long inodeA;
        long inodeB;
        NamespaceProcess agent;
        try (TwoHosts hosts = TwoHosts.create(options)) {
            inodeA = hosts.a().namespace().inode();
            inodeB = hosts.b().namespace().inode();
            assertThat(hosts.a().ipv4().getHostAddress()).isEqualTo("198.18.0.1");
            assertThat(hosts.b().ipv6().getHostAddress()).isEqualTo("2001:2:0:0:0:0:0:2");
            for (TwoHosts.Host h : List.of(hosts.a(), hosts.b())) {
                String link = hosts.exec(h, List.of("ip", "-o", "-d", "link", "show", h.interfaceName()), T).stdout();
                assertThat(link).contains("mtu 1400").contains("state UP").contains("veth");
                assertThat(hosts.exec(h, List.of("cat", "/sys/class/net/" + h.interfaceName() + "/mtu"), T).stdout().strip())
                        .isEqualTo("1400");
                String addr = hosts.exec(h, List.of("ip", "-o", "addr", "show", "dev", h.interfaceName()), T).stdout();
                assertThat(addr).contains(h.ipv4().getHostAddress() + "/24")
                        .contains((h == hosts.a() ? "2001:2::1" : "2001:2::2") + "/64");
                // tc prints the rate in its own units (200000000 bit/s = 200Mbit) and bytes with a b
                String qdisc = hosts.exec(h, List.of("tc", "qdisc", "show", "dev", h.interfaceName()), T).stdout();
                assertThat(qdisc).contains("qdisc tbf").contains("rate 200Mbit").contains("burst 32000b");
                assertThat(hosts.exec(h, List.of("ip", "-o", "link", "show", "lo"), T).stdout()).contains("UP");
            }
            for (String address : List.of(TwoHosts.IPV4_B, TwoHosts.IPV6_B)) {
                NamespaceProcess sink = hosts.startAgent(TwoHosts.javaCommand(TcpPeer.class.getName(), List.of("sink", address)));
                BufferedReader sinkOut = new BufferedReader(new InputStreamReader(sink.process().getInputStream(), StandardCharsets.UTF_8));
                String listening = line(sinkOut, sink);
                assertThat(listening).startsWith("listening ");
                NetworkNamespace.Result source = hosts.exec(hosts.a(), TwoHosts.javaCommand(TcpPeer.class.getName(),
                        List.of("source", address, listening.substring(10), Long.toString(BYTES))), Duration.ofSeconds(60));
                assertThat(source.exitCode()).as(source.stderr()).isZero();
                // both ends count the 4 MiB the source wrote
                assertThat(source.stdout().strip()).isEqualTo("sent 4194304");
                assertThat(line(sinkOut, sink)).isEqualTo("received 4194304");
            }
            agent = hosts.startAgent(List.of("sleep", "600"));
        }
        assertThat(agent.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(awaitEmpty(List.of(inodeA, inodeB), T)).isEmpty();
        assertThat(heldDescriptors()).doesNotContain("net:[" + inodeA + "]", "net:[" + inodeB + "]");
        assertThat(hostInterfaces()).doesNotContain(TwoHosts.INTERFACE_A, TwoHosts.INTERFACE_B);
    }

    /** @return the next line, or fails when none comes within {@link #T} */
    private static String line(BufferedReader r, NamespaceProcess p) throws Exception {
        String l = ChildOutput.lineWithin(r, T);
        assertThat(l).as("output of " + p.command()).isNotNull();
        return l;
    }

    /** @return the interfaces of this JVM's network namespace, as sysfs lists them */
    private static List<String> hostInterfaces() throws IOException {
        try (Stream<Path> links = Files.list(Path.of("/sys/class/net"))) {
            return links.map(l -> l.getFileName().toString()).toList();
        }
    }

    @Test
    void aJvmKilledWithSigkillLeavesNoNamespaceInterfaceOrAgent() throws Exception {
        assumeTwoHosts(TwoHostsOptions.builder().tbf(100_000_000L, 16_000, 64_000).build());
        List<String> namedBefore = NetworkNamespace.list();
        Process keeper = new ProcessBuilder(TwoHosts.javaCommand(TwoHostsKeeper.class.getName(), List.of()))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String ready;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(keeper.getInputStream(), StandardCharsets.UTF_8));
            ready = ChildOutput.lineWithin(out, T);
        } finally {
            keeper.destroyForcibly(); // SIGKILL: no shutdown hook, no close
        }
        assertThat(keeper.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(keeper.exitValue()).isEqualTo(137); // 128 + SIGKILL (9)
        assertThat(ready).startsWith("ready ");
        String[] f = ready.split(" ");
        long inodeA = Long.parseLong(f[1]);
        long inodeB = Long.parseLong(f[2]);
        long agent = Long.parseLong(f[3]);
        // the holders saw the pipe close, killed the agent and exited: nothing holds either namespace,
        // so the kernel freed both and the veth pair with them
        assertThat(awaitEmpty(List.of(inodeA, inodeB), T)).isEmpty();
        assertThat(awaitExited(List.of(agent), T)).isEmpty();
        assertThat(NetworkNamespace.list()).isEqualTo(namedBefore)
                .noneMatch(n -> n.startsWith("linerate-" + keeper.pid()));
        assertThat(hostInterfaces()).doesNotContain(TwoHosts.INTERFACE_A, TwoHosts.INTERFACE_B);
    }
}
