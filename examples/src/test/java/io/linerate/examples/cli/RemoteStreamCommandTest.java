package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.nio.agent.Agent;
import io.linerate.nio.agent.AgentConfig;
import io.linerate.nio.agent.AgentLimits;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RemoteStreamCommandTest {

    @Test
    void streamWithPeerPrintsBothEnds() throws Exception {
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + agent.address().getPort(), "--duration", "200ms", "--warmup", "0s",
                    "--interval", "100ms", "--reverse");

            assertThat(code).as(err.toString()).isZero();
            assertThat(out.toString()).contains("reverse (the agent sends)").contains("# local  received")
                    .contains("# remote sent");
        }
    }

    @Test
    void serveOffLoopbackWithoutASecretIsBadUsage() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // 198.18.0.1 need not exist on this host: the secret is checked before anything binds
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "serve", "--bind", "198.18.0.1");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("198.18.0.1, which is not a loopback address: it needs a shared secret (--secret-file)");
    }

    @Test
    void reverseWithoutPeerIsBadUsage() {
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "stream", "--reverse");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--reverse and --secret-file apply to a stream with --peer HOST:PORT only");
    }
}
