package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.Transports;
import io.linerate.netns.NamespaceProcess;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.ChildOutput;
import io.linerate.testsupport.TwoHosts;
import io.linerate.testsupport.TwoHostsOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code linerate raw --peer} across a real link: {@link TwoHosts} makes two network namespaces,
 * the test joins them by a second veth pair of their own for the frames ({@value #TX_IF} in host A,
 * {@value #RX_IF} in host B), with IPv6 off and no address, so that nothing but the run's frames
 * crosses it and the interfaces' own counters can be compared exactly. {@code linerate serve} runs
 * in host B (on 198.18.0.2, so with a shared secret) and {@code linerate raw} in host A, each in a
 * JVM of its own, with the class path of this test (the afpacket transport on it). Needs Linux
 * and root; skipped with the reason otherwise.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RawPeerNetnsTest {
    private static final String TX_IF = "lr-ra";
    private static final String RX_IF = "lr-rb";
    private static final Duration T = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MAIN = Linerate.class.getName();
    private static final String SECRET_TEXT = "raw frames share this";

    @TempDir
    static Path dir;
    private static Path secret;
    private static TwoHosts hosts;
    private static int port;

    @BeforeAll
    static void hostsLinkAndAgent() throws Exception {
        TwoHostsOptions options = TwoHostsOptions.builder().build();
        Optional<String> why = TwoHosts.unavailableReason(options);
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        Optional<String> noRaw = Transports.byName("afpacket").unavailabilityCause();
        Assumptions.assumeTrue(noRaw.isEmpty(), () -> "skipped: " + noRaw.orElse(""));
        secret = Files.writeString(dir.resolve("secret"), SECRET_TEXT + "\n");
        hosts = TwoHosts.create(options);
        // made inside A with its peer inside B: the pair exists only in the two namespaces
        check(hosts.a(), List.of("ip", "link", "add", TX_IF, "type", "veth", "peer", "name", RX_IF,
                "netns", hosts.b().namespace().path().toString()));
        for (var h : List.of(new Object[] {hosts.a(), TX_IF}, new Object[] {hosts.b(), RX_IF})) {
            TwoHosts.Host host = (TwoHosts.Host) h[0];
            String dev = (String) h[1];
            // no IPv6 (no link-local address, no neighbour or router solicitation) and no IPv4 address:
            // the pair carries the run's frames and nothing else
            check(host, List.of("sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/" + dev + "/disable_ipv6"));
            check(host, List.of("ip", "link", "set", dev, "up"));
        }
        NamespaceProcess agent = hosts.startAgent(java(List.of("serve", "--bind", TwoHosts.IPV4_B, "--port", "0",
                "--secret-file", secret.toString())));
        ChildOutput.drain(agent.process().getErrorStream());
        BufferedReader out = new BufferedReader(new InputStreamReader(agent.process().getInputStream(), StandardCharsets.UTF_8));
        String banner = ChildOutput.lineWithin(out, Duration.ofSeconds(60));
        Matcher m = Pattern.compile(" port (\\d+)").matcher(String.valueOf(banner));
        assertThat(m.find()).as("the agent's banner: " + banner).isTrue();
        port = Integer.parseInt(m.group(1));
        ChildOutput.drain(agent.process().getInputStream());
    }

    @AfterAll
    static void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    /** A raw run between the hosts, its JSON result, and what the two interfaces counted over it. */
    private record Run(NetworkNamespace.Result process, JsonNode result, long sentByInterface, long receivedByInterface) {}

    /**
     * Runs 20 Mbit/s of 200-byte frames for 1 s (300 ms warm-up) between this host's lr-ra and the
     * agent's lr-rb: sent from here ({@code txHere}) or by the agent, and checks that it exited 0 or 1.
     */
    private static Run raw(boolean txHere) throws Exception {
        TwoHosts.Host sender = txHere ? hosts.a() : hosts.b();
        TwoHosts.Host receiver = txHere ? hosts.b() : hosts.a();
        String senderIf = txHere ? TX_IF : RX_IF;
        String receiverIf = txHere ? RX_IF : TX_IF;
        long[] before = {counter(sender, senderIf, "tx_packets"), counter(receiver, receiverIf, "rx_packets")};
        NetworkNamespace.Result r = hosts.exec(hosts.a(), java(List.of("raw", txHere ? "--tx" : "--rx", TX_IF, "--peer",
                TwoHosts.IPV4_B + ":" + port, "--peer-interface", RX_IF, "--secret-file", secret.toString(),
                "--frame-size", "200", "--rate", "20M", "--warmup", "300ms", "--duration", "1s", "--interval", "500ms",
                "--no-hw-timestamps", "--json")), T);
        long sentByInterface = counter(sender, senderIf, "tx_packets") - before[0];
        long receivedByInterface = counter(receiver, receiverIf, "rx_packets") - before[1];
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isIn(0, 1);
        // the spec carries the agent's secret (AgentPeer); no output shows it
        assertThat(r.stdout() + r.stderr()).doesNotContain(SECRET_TEXT);
        JsonNode result = JSON.readTree(r.stdout().strip().lines().reduce((x, y) -> y).orElseThrow());
        return new Run(r, result, sentByInterface, receivedByInterface);
    }

    @Test
    void txOnlyHereAgainstTheAgentsRxOnlyCountsEveryFrameAsBothInterfacesDo() throws Exception {
        Run run = raw(true);
        long sentByInterface = run.sentByInterface();
        long receivedByInterface = run.receivedByInterface();
        NetworkNamespace.Result r = run.process();
        JsonNode result = run.result();
        JsonNode d = result.get("detail");
        JsonNode s = d.get("streams").get(0);
        long sent = s.get("tx_frames_total").asLong();
        long received = s.get("rx_frames_total").asLong();
        long ringDrops = d.get("remote").get("streams").get(0).get("ring_drops").asLong();
        assertThat(d.get("tx_host").asText()).isEqualTo("local");
        assertThat(d.get("rx_host").asText()).isEqualTo("remote");
        assertThat(d.get("rx").asText()).isEqualTo(RX_IF);
        // 20 Mbit/s of 200-byte frames (1600 bits each) is 12500 frames/s, 16250 in 1.3 s; a loaded host
        // sends fewer, never none; the pacer sends whole batches (here 12 frames, the 12.5 due a millisecond), at
        // most one ahead; 64, the largest batch, bounds that
        assertThat(sent).isPositive().isLessThanOrEqualTo(16_250 + 64);
        // nothing but the run's frames crossed the pair: each end's count is its interface's own
        assertThat(sent).as("frames sent = %s tx_packets", TX_IF).isEqualTo(sentByInterface);
        assertThat(received + ringDrops).as("frames received + ring drops = %s rx_packets", RX_IF)
                .isEqualTo(receivedByInterface);
        // a veth counts as received on one end exactly what it sent from the other
        assertThat(receivedByInterface).isEqualTo(sentByInterface);
        // every window frame is 200 bytes at L2 (the frame size asked for, FCS excluded)
        JsonNode local = d.get("local").get("streams").get(0);
        assertThat(local.get("bytes").asLong()).isEqualTo(200 * local.get("frames").asLong());
        assertThat(s.get("lost").asLong()).isEqualTo(s.get("tx_frames").asLong() - s.get("rx_frames").asLong());
        if (result.get("valid").asBoolean()) {
            // valid means no frame lost: the ends agree frame for frame, and with both interfaces
            assertThat(r.exitCode()).isZero();
            assertThat(s.get("rx_frames").asLong()).isEqualTo(s.get("tx_frames").asLong());
            if (ringDrops == 0) {
                assertThat(received).isEqualTo(sent);
            }
        } else {
            // a busy host may overrun the receiving ring; the reason says which frames went missing
            assertThat(result.get("invalid_reasons").toString()).contains("lost");
        }
        // each end's metrics carry their host
        assertThat(result.get("metrics").toString()).contains("\"host\":\"local\"").contains("\"host\":\"remote\"")
                .contains("raw_tx_frames_per_s").contains("raw_rx_frames_per_s");
    }

    @Test
    void rxOnlyHereAgainstTheAgentsTxOnlyCountsEveryFrameAsBothInterfacesDo() throws Exception {
        // the agent sends from its lr-rb to this host's lr-ra, whose address this host reads and tells it
        Run run = raw(false);
        long sentByInterface = run.sentByInterface();
        long receivedByInterface = run.receivedByInterface();
        JsonNode result = run.result();
        JsonNode d = result.get("detail");
        JsonNode s = d.get("streams").get(0);
        long sent = s.get("tx_frames_total").asLong();
        long received = s.get("rx_frames_total").asLong();
        long ringDrops = d.get("local").get("streams").get(0).get("ring_drops").asLong();
        assertThat(d.get("tx_host").asText()).isEqualTo("remote");
        assertThat(d.get("tx").asText()).isEqualTo(RX_IF);
        assertThat(sent).isPositive();
        assertThat(sent).as("frames sent = %s tx_packets", RX_IF).isEqualTo(sentByInterface);
        assertThat(received + ringDrops).as("frames received + ring drops = %s rx_packets", TX_IF)
                .isEqualTo(receivedByInterface);
        assertThat(receivedByInterface).isEqualTo(sentByInterface);
        if (result.get("valid").asBoolean()) {
            assertThat(s.get("rx_frames").asLong()).isEqualTo(s.get("tx_frames").asLong());
        } else {
            assertThat(result.get("invalid_reasons").toString()).contains("lost");
        }
    }

    @Test
    void theTextOutputNamesEachEndAndItsHost() throws Exception {
        NetworkNamespace.Result r = hosts.exec(hosts.a(), java(List.of("raw", "--tx", TX_IF, "--peer",
                TwoHosts.IPV4_B + ":" + port, "--peer-interface", RX_IF, "--secret-file", secret.toString(),
                "--frame-size", "200", "--rate", "5M", "--warmup", "100ms", "--duration", "300ms", "--no-hw-timestamps")), T);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isIn(0, 1);
        // the spec carries the agent's secret (AgentPeer); no output shows it
        assertThat(r.stdout() + r.stderr()).doesNotContain(SECRET_TEXT);
        assertThat(r.stdout()).contains("raw with the agent at " + TwoHosts.IPV4_B + ":" + port + ": " + TX_IF + " (local) -> "
                        + RX_IF + " (remote)")
                .contains("stream ethertype 0x88b5: tx ").contains("(local), rx ").contains("(remote), lost ")
                .containsPattern("tx \\d+ frames \\d+ bytes \\d+ frames/s \\d+\\.\\d{3} Mbit/s \\(local\\)")
                .containsPattern("rx \\d+ frames \\d+ bytes (\\d+ frames/s \\d+\\.\\d{3} Mbit/s|- frames/s) \\(remote\\)")
                .contains("# local  sent on " + TX_IF).contains("# remote received on " + RX_IF)
                .contains("# clocks: same host");
        assertThat(r.stdout().strip().lines().reduce((x, y) -> y).orElseThrow()).matches("VALID|INVALID: .*");
    }

    @Test
    void anInterfaceTheAgentDoesNotHaveFailsTheRunNamingIt() throws Exception {
        NetworkNamespace.Result r = hosts.exec(hosts.a(), java(List.of("raw", "--tx", TX_IF, "--peer",
                TwoHosts.IPV4_B + ":" + port, "--peer-interface", "lr-nope", "--secret-file", secret.toString(),
                "--duration", "100ms", "--warmup", "0s")), T);
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("interface lr-nope does not exist");
    }

    private static List<String> java(List<String> args) {
        List<String> cmd = new ArrayList<>(TwoHosts.javaCommand(MAIN, args));
        cmd.add(1, "--add-exports");
        cmd.add(2, "java.base/jdk.internal.misc=ALL-UNNAMED");
        return cmd;
    }

    private static long counter(TwoHosts.Host host, String dev, String name) throws IOException {
        NetworkNamespace.Result r = hosts.exec(host, List.of("cat", "/sys/class/net/" + dev + "/statistics/" + name), T);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return Long.parseLong(r.stdout().strip());
    }

    private static void check(TwoHosts.Host host, List<String> command) throws IOException {
        NetworkNamespace.Result r = hosts.exec(host, command, T);
        assertThat(r.exitCode()).as(String.join(" ", command) + ": " + r.stderr()).isZero();
    }
}
