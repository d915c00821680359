package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.testsupport.OpenFds;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * linerate's iperf3 client against a fake server in this JVM that breaks the protocol: an unknown
 * state byte, a JSON length of 2^31, silence. Each run ends with an {@link Iperf3Exception} naming
 * the server and the step, within the I/O timeout (every wait here is bounded well beyond it), and
 * leaves no descriptor and no linerate thread open.
 */
class Iperf3ClientBadServerTest {
    private static final Duration IO = Duration.ofSeconds(1);
    private static final int WAIT_MILLIS = 15_000;

    /** What the fake server does with the accepted control connection after reading the cookie. */
    private interface Script {
        void run(ServerSocket server, Socket control, InputStream in, OutputStream out) throws Exception;
    }

    /** Runs the client against {@code script}, and returns its error once the fake has closed everything. */
    private static Iperf3Exception runAgainst(Script script) throws Exception {
        // the JVM keeps a SecureRandom's device open once used, and a selector's first use loads for good
        Iperf3Wire.newCookie();
        java.nio.channels.Selector.open().close();
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(WAIT_MILLIS);
            Set<String> fdsBefore = OpenFds.snapshot();
            CompletableFuture<Void> fake = CompletableFuture.runAsync(() -> {
                try (Socket control = server.accept()) {
                    control.setSoTimeout(WAIT_MILLIS);
                    DataInputStream in = new DataInputStream(control.getInputStream());
                    in.readFully(new byte[Iperf3Wire.COOKIE_BYTES]);
                    script.run(server, control, in, control.getOutputStream());
                    // hold the connection until the client closes it (bounded by the read timeout)
                    while (in.read() >= 0) {
                        // what the client says before it closes is not checked here
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(1000).bound(Bound.bytes(1000))
                    .ioTimeout(IO).trafficClass(0).build();
            CompletableFuture<Object> client = CompletableFuture.supplyAsync(() -> {
                try {
                    return Iperf3Client.run("127.0.0.1", server.getLocalPort(), spec, Iperf3Options.defaults());
                } catch (Iperf3Exception e) {
                    return e;
                }
            });
            Object outcome = client.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            fake.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            assertThat(outcome).isInstanceOf(Iperf3Exception.class);
            assertThat(OpenFds.snapshot()).isEqualTo(fdsBefore);
            assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("linerate-iperf3"));
            return (Iperf3Exception) outcome;
        }
    }

    @Test
    void anUnknownStateByteIsAClearError() throws Exception {
        Iperf3Exception e = runAgainst((server, control, in, out) -> out.write(77));
        assertThat(e).hasMessageContaining("sent unknown state 77 during the cookie; expected PARAM_EXCHANGE");
    }

    @Test
    void aJsonLengthOf2To31IsAClearErrorWithoutAllocatingIt() throws Exception {
        Iperf3Exception e = runAgainst((server, control, in, out) -> {
            DataInputStream d = (DataInputStream) in;
            out.write(Iperf3State.PARAM_EXCHANGE);
            d.readFully(new byte[d.readInt()]); // the parameters
            out.write(Iperf3State.CREATE_STREAMS);
            try (Socket data = server.accept()) {
                new DataInputStream(data.getInputStream()).readFully(new byte[Iperf3Wire.COOKIE_BYTES]);
                out.write(new byte[] {Iperf3State.TEST_START, Iperf3State.TEST_RUNNING});
                // the client sends its 1000 bytes (they fit the socket buffers unread), then TEST_END (4)
                assertThat(d.read()).isEqualTo(Iperf3State.TEST_END);
                out.write(Iperf3State.EXCHANGE_RESULTS);
                d.readFully(new byte[d.readInt()]); // the client's results
                out.write(new byte[] {(byte) 0x80, 0, 0, 0}); // 2^31 bytes of results announced
            }
        });
        assertThat(e).hasMessageContaining("reading the server results failed: a JSON object of 2147483648 bytes was "
                + "announced; allowed: 0..1048576");
        assertThat(e).hasMessageContaining("partial: linerate had sent 1000 bytes");
    }

    @Test
    void aServerThatFallsSilentIsAnErrorWithinTheIoTimeout() throws Exception {
        // the cookie is read, and nothing is sent: the client gives up after its 1 s I/O timeout
        Iperf3Exception e = runAgainst((server, control, in, out) -> { });
        assertThat(e).hasMessageContaining("did not answer the cookie");
    }
}
