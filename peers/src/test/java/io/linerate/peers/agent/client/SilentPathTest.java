package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.netns.NamespaceProcess;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.TwoHosts;
import io.linerate.testsupport.TwoHostsOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A black-holed path mid-stream (iperf3 issues #1215 and #1858): nftables drops every packet at
 * both veth ends of {@link TwoHosts} while a stream runs through the agent. Every end, the client in
 * host A and the agent's session in host B, stops within its I/O timeout of silence, whichever way
 * the data flows and whatever the protocol, and the client fails naming the silent path, instead of
 * running to the end of its two-minute window and passing. Needs Linux, root and nft; skipped with the
 * reason otherwise.
 *
 * <p>Nothing is timed: the drop goes in once the receiving host's interface has counted the
 * stream's packets, and each end is then awaited with a bound far below the window's two minutes.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SilentPathTest {
    private static final Duration IO = Duration.ofSeconds(2);
    /** Far below the window of {@link #DURATION}: an end that ran to its window's end would miss it. */
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final Duration DURATION = Duration.ofSeconds(120);
    private static final Duration T = Duration.ofSeconds(30);
    /** An iperf 2 UDP sender's test: it hears nothing from the server before its end, so it runs its duration. */
    private static final Duration IPERF2_DURATION = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static Path secret;
    private static TwoHosts hosts;
    private static int port;

    @BeforeAll
    static void hostsAndAgent() throws Exception {
        TwoHostsOptions options = TwoHostsOptions.builder().build();
        Optional<String> why = TwoHosts.unavailableReason(options);
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        Assumptions.assumeTrue(nftAvailable(), "skipped: nft (Debian package nftables) is not installed");
        secret = Files.writeString(dir.resolve("secret"), "two hosts share this\n");
        hosts = TwoHosts.create(options);
        port = TwoHostsAgentStart.startAgent(hosts, TwoHosts.IPV4_B, secret);
    }

    @AfterAll
    static void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    private static boolean nftAvailable() {
        try {
            return new ProcessBuilder("nft", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"udp,reverse", "udp,forward", "tcp,forward", "tcp,reverse"})
    void aBlackHoledPathEndsBothEndsWithinTheirIoTimeoutAndTheRunFails(String protocol, String direction)
            throws Exception {
        boolean reverse = direction.equals("reverse");
        TwoHosts.Host receiving = reverse ? hosts.a() : hosts.b();
        long before = rxPackets(receiving);
        NamespaceProcess client = hosts.start(hosts.a(), TwoHosts.javaCommand(Client.class.getName(), List.of(
                TwoHosts.IPV4_B, Integer.toString(port), secret.toString(), protocol, direction)));
        CompletableFuture<String> out = collect(client.process());
        try {
            // the stream flows: the receiving host's interface has counted a thousand packets more
            await(() -> rxPackets(receiving) - before > 1000, "the stream's packets at " + receiving.name());
            blackHole(true);

            assertThat(client.process().waitFor(BOUND.toSeconds(), TimeUnit.SECONDS))
                    .as("the client ended within %s of a %s window", BOUND, DURATION).isTrue();
            String said = out.get(T.toSeconds(), TimeUnit.SECONDS);
            assertThat(client.process().exitValue()).as(said).isEqualTo(3);
            assertThat(said).startsWith("failed").contains("silent").contains("the agent at " + TwoHosts.IPV4_B);
            // the agent's session ended too: it released its data and control sockets
            await(() -> agentSockets().isEmpty(), "the agent's session to release its sockets");
        } finally {
            client.close();
            blackHole(false);
        }
    }

    /**
     * linerate's iperf3 client sending UDP to a real iperf3 server: its datagrams tell it nothing, and
     * iperf3's control connection is silent during a test; keepalive probes sized to the I/O timeout
     * fail that connection on the black-holed path, and the client fails instead of sending for two minutes.
     */
    @org.junit.jupiter.api.Test
    void anIperf3ClientSendingUdpIntoABlackHoleEndsWithinItsIoTimeout() throws Exception {
        NamespaceProcess server = hosts.start(hosts.b(), List.of("iperf3", "-s", "-p", "5201", "-B", TwoHosts.IPV4_B));
        try {
            await(() -> listening(5201), "iperf3 -s to listen in " + hosts.b().name());
            long before = rxPackets(hosts.b());
            NamespaceProcess client = hosts.start(hosts.a(), TwoHosts.javaCommand(Client.class.getName(), List.of(
                    TwoHosts.IPV4_B, "5201", "-", "iperf3", "forward")));
            CompletableFuture<String> out = collect(client.process());
            try {
                await(() -> rxPackets(hosts.b()) - before > 1000, "the stream's packets at " + hosts.b().name());
                blackHole(true);

                assertThat(client.process().waitFor(BOUND.toSeconds(), TimeUnit.SECONDS))
                        .as("the client ended within %s of a %s window", BOUND, DURATION).isTrue();
                String said = out.get(T.toSeconds(), TimeUnit.SECONDS);
                assertThat(client.process().exitValue()).as(said).isEqualTo(3);
                // the control connection's ETIMEDOUT, with what was sent before it
                assertThat(said).startsWith("failed iperf3 server " + TwoHosts.IPV4_B).containsIgnoringCase("timed out")
                        .contains("partial: linerate had sent");
            } finally {
                client.close();
                blackHole(false);
            }
        } finally {
            server.close();
        }
    }

    /**
     * linerate's iperf3 server sending UDP (a real {@code iperf3 -c -u -R}) into a black hole: the
     * keepalive probes on its control connection fail it within about the I/O timeout (5 s here), and
     * the session releases its sockets instead of sending for the test's two minutes.
     */
    @org.junit.jupiter.api.Test
    void linerateIperf3ServerSendingUdpIntoABlackHoleEndsItsSession() throws Exception {
        NamespaceProcess server = hosts.start(hosts.b(), TwoHosts.javaCommand(
                io.linerate.peers.interop.IperfTwoHostsPeer.class.getName(), List.of("serve", TwoHosts.IPV4_B, "198.18.0.0/24")));
        try {
            java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(
                    server.process().getInputStream(), StandardCharsets.UTF_8));
            String listening = CompletableFuture.supplyAsync(() -> {
                try {
                    return lines.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(T.toSeconds(), TimeUnit.SECONDS);
            assertThat(listening).startsWith("listening ");
            String port3 = listening.split(" ")[1];
            long before = rxPackets(hosts.a());
            NamespaceProcess client = hosts.start(hosts.a(), List.of("iperf3", "-c", TwoHosts.IPV4_B, "-p", port3,
                    "-u", "-b", "50M", "-R", "-t", "120"));
            try {
                await(() -> rxPackets(hosts.a()) - before > 1000, "the stream's packets at " + hosts.a().name());
                blackHole(true);

                await(() -> agentSockets().isEmpty(), "linerate's iperf3 server to release its test's sockets");
            } finally {
                client.close();
                blackHole(false);
            }
        } finally {
            server.close();
        }
    }

    /**
     * linerate's iperf 2 client sending UDP to a real {@code iperf -s -u}: iperf 2 has no control
     * connection and its server says nothing before the final datagram, so a sender cannot hear
     * silence. As {@code iperf -c -u} does, it sends for its duration into the black hole; then
     * its final datagram's re-sends are bounded by the I/O timeout, and the run is invalid with
     * what it sent: the server's report never came.
     */
    @org.junit.jupiter.api.Test
    void anIperf2ClientSendingUdpIntoABlackHoleEndsAtItsDurationAndIsInvalidWithoutTheReport() throws Exception {
        NamespaceProcess server = hosts.start(hosts.b(), List.of("iperf", "-s", "-u", "-p", "5001", "-B", TwoHosts.IPV4_B));
        try {
            await(() -> listeningUdp(5001), "iperf -s -u to listen in " + hosts.b().name());
            long before = rxPackets(hosts.b());
            NamespaceProcess client = hosts.start(hosts.a(), TwoHosts.javaCommand(Client.class.getName(), List.of(
                    TwoHosts.IPV4_B, "5001", "-", "iperf2", "forward")));
            CompletableFuture<String> out = collect(client.process());
            try {
                await(() -> rxPackets(hosts.b()) - before > 1000, "the stream's packets at " + hosts.b().name());
                blackHole(true);

                // its duration, then at most the I/O timeout for the report; the rest is margin for a slow host
                Duration bound = IPERF2_DURATION.plus(IO).plus(T);
                assertThat(client.process().waitFor(bound.toSeconds(), TimeUnit.SECONDS))
                        .as("the client ended within %s", bound).isTrue();
                String said = out.get(T.toSeconds(), TimeUnit.SECONDS);
                assertThat(client.process().exitValue()).as(said).isEqualTo(3);
                assertThat(said).startsWith("invalid").contains("sent no report");
                long sent = Long.parseLong(said.replaceAll("(?s).*sent (\\d+) bytes.*", "$1"));
                assertThat(sent).as(said).isPositive();
            } finally {
                client.close();
                blackHole(false);
            }
        } finally {
            server.close();
        }
    }

    /**
     * linerate's iperf 2 server receiving UDP from a real {@code iperf -c -u} whose datagrams stop
     * arriving: the server ends the test within its I/O timeout of silence (5 s), recorded with the
     * bytes it had counted and why it ended, while the client sends for two minutes.
     */
    @org.junit.jupiter.api.Test
    void linerateIperf2ServerEndsAUdpTestWhoseClientWentSilent() throws Exception {
        NamespaceProcess server = hosts.start(hosts.b(), TwoHosts.javaCommand(
                io.linerate.peers.interop.IperfTwoHostsPeer.class.getName(), List.of("serve", TwoHosts.IPV4_B, "198.18.0.0/24")));
        try {
            java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(
                    server.process().getInputStream(), StandardCharsets.UTF_8));
            String listening = readLine(lines);
            assertThat(listening).startsWith("listening ");
            String port2 = listening.split(" ")[2];
            long before = rxPackets(hosts.b());
            NamespaceProcess client = hosts.start(hosts.a(), List.of("iperf", "-c", TwoHosts.IPV4_B, "-p", port2,
                    "-u", "-b", "50M", "-l", "1400", "-t", "120"));
            try {
                await(() -> rxPackets(hosts.b()) - before > 1000, "the stream's packets at " + hosts.b().name());
                blackHole(true);
                // the server answers once the test ended, or says it did not within 15 s: the I/O timeout and 10 s more
                server.process().getOutputStream().write("iperf2-test 1\n".getBytes(StandardCharsets.UTF_8));
                server.process().getOutputStream().flush();
                com.fasterxml.jackson.databind.JsonNode test = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(readLine(lines));

                assertThat(test.has("error")).as(test.toString()).isFalse();
                assertThat(test.get("udp").asBoolean()).isTrue();
                assertThat(test.get("end").asText()).as(test.toString()).startsWith("silent for the I/O timeout of 5000 ms");
                assertThat(test.get("bytes").asLong()).as("the bytes counted before the silence: " + test).isPositive();
                assertThat(test.has("report")).as("no report for a test cut short").isFalse();
            } finally {
                client.close();
                blackHole(false);
            }
        } finally {
            server.close();
        }
    }

    /** @return the next line of {@code in}, waiting at most {@link #T} */
    private static String readLine(java.io.BufferedReader in) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return in.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(T.toSeconds(), TimeUnit.SECONDS);
    }

    private static boolean listeningUdp(int port) {
        try {
            return hosts.exec(hosts.b(), List.of("ss", "-Hlun"), T).stdout().contains(":" + port + " ");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean listening(int port) {
        try {
            return hosts.exec(hosts.b(), List.of("ss", "-Htln"), T).stdout().contains(":" + port + " ");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Drops, or stops dropping, every packet arriving at either veth end. */
    private static void blackHole(boolean on) throws IOException {
        for (TwoHosts.Host h : List.of(hosts.a(), hosts.b())) {
            List<String> cmd = on
                    ? List.of("nft", "add table netdev linerate_black_hole { chain in { type filter hook ingress device "
                            + h.interfaceName() + " priority 0; policy drop; }; }")
                    : List.of("nft", "delete table netdev linerate_black_hole");
            NetworkNamespace.Result r = hosts.exec(h, cmd, T);
            if (on) {
                assertThat(r.exitCode()).as(r.stderr()).isZero();
            }
        }
    }

    private static long rxPackets(TwoHosts.Host h) {
        try {
            NetworkNamespace.Result r = hosts.exec(h, List.of("cat",
                    "/sys/class/net/" + h.interfaceName() + "/statistics/rx_packets"), T);
            return Long.parseLong(r.stdout().strip());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return host B's connected sockets held by a process: the sessions' of a server there, not its listeners */
    private static List<String> agentSockets() {
        try {
            NetworkNamespace.Result r = hosts.exec(hosts.b(), List.of("ss", "-Htuanp"), T);
            return r.stdout().lines().filter(l -> l.contains("users:") && l.contains("ESTAB")).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Polls {@code condition} every 50 ms for at most {@link #BOUND}. */
    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(50_000_000L);
        }
    }

    private static CompletableFuture<String> collect(Process p) {
        return CompletableFuture.supplyAsync(() -> {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try {
                p.getInputStream().transferTo(b);
            } catch (IOException ignored) {
                // the process ended
            }
            return b.toString(StandardCharsets.UTF_8);
        });
    }

    /**
     * The client, in a JVM of its own in host A: {@code HOST PORT SECRET_FILE tcp|udp|iperf3|iperf2 forward|reverse}
     * ({@code iperf3}, {@code iperf2}: linerate's iperf3 or iperf 2 client sending UDP to that server; no secret;
     * iperf 2's test lasts {@link #IPERF2_DURATION}). Runs a 50 Mbit/s stream of {@link #DURATION} with an I/O timeout of {@link #IO}; prints {@code ok}
     * and exits 0, or prints {@code failed MESSAGE} and exits 3.
     */
    public static final class Client {
        private Client() {
        }

        public static void main(String[] args) throws Exception {
            boolean iperf3 = args[3].equals("iperf3");
            boolean iperf2 = args[3].equals("iperf2");
            TransferSpec spec = TransferSpec.builder()
                    .protocol(args[3].equals("tcp") ? Protocol.TCP : Protocol.UDP).family(AddressFamily.IPV4)
                    .payloadBytes(1400).rateBitsPerSecond(50_000_000).duration(iperf2 ? IPERF2_DURATION : DURATION)
                    .warmup(iperf2 ? Duration.ZERO : Duration.ofMillis(500))
                    .interval(Duration.ofMillis(500)).ioTimeout(IO)
                    .endpoint(Endpoint.remote(args[0], Integer.parseInt(args[1]))).build();
            if (iperf2) {
                iperf2(args, spec);
                return;
            }
            if (iperf3) {
                try {
                    io.linerate.peers.iperf3.Iperf3Client.run(args[0], Integer.parseInt(args[1]), spec,
                            io.linerate.peers.iperf3.Iperf3Options.defaults());
                    System.out.println("ok");
                    return;
                } catch (io.linerate.peers.iperf3.Iperf3Exception e) {
                    System.out.println("failed " + e.getMessage());
                    System.out.flush();
                    System.exit(3);
                }
            }
            RemoteOptions options = new RemoteOptions(Optional.of(SecretFile.read(Path.of(args[2]))),
                    args[4].equals("reverse"));
            try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(), options)) {
                t.runBothEnds(IntervalListener.NONE);
                System.out.println("ok");
            } catch (io.linerate.core.TransferException e) {
                System.out.println("failed " + e.getMessage());
                System.out.flush();
                System.exit(3);
            }
        }

        /** linerate's iperf 2 client: prints {@code ok}, or {@code invalid REASONS, sent B bytes} and exits 3. */
        private static void iperf2(String[] args, TransferSpec spec) throws Exception {
            try {
                io.linerate.peers.iperf2.Iperf2Result r = io.linerate.peers.iperf2.Iperf2Client.run(args[0],
                        Integer.parseInt(args[1]), spec, io.linerate.peers.iperf2.Iperf2HeaderVariant.SEQ64);
                if (r.invalidReasons().isEmpty()) {
                    System.out.println("ok");
                    return;
                }
                System.out.println("invalid " + String.join("; ", r.invalidReasons()) + ", sent " + r.local().bytes() + " bytes");
            } catch (io.linerate.peers.iperf2.Iperf2Exception e) {
                System.out.println("failed " + e.getMessage());
            }
            System.out.flush();
            System.exit(3);
        }
    }
}
