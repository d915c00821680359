package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code linerate serve}'s lines of the ping-pong and request/response tests it serves: an
 * accepted line naming the client and the test, then one line of the agent's own counts, the ones
 * the client's result holds, and how the test ended; {@code --quiet} prints none.
 */
@Timeout(120)
class ServeLatencyLinesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** {@code [  1]  0.31 sec  120 echoes  3840 bytes echoed  done}: test, then the counts, then the end. */
    private static final Pattern COUNTS = Pattern.compile("^\\[\\s*(\\d+)\\]\\s+\\d+\\.\\d{2} sec  (\\d+) (\\D+?)  (\\d+) (\\D+?)  "
            + "(done|\\(ended: .*\\))$");
    private static final String[] SHORT_PINGPONG = {"--protocol", "tcp", "--sizes", "32", "--minms", "20", "--maxms", "200",
        "--miniter", "10", "--maxiter", "50", "--warmupms", "0", "--warmupiter", "0", "--json"};

    private static JsonNode client(String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args);
        assertThat(code).as(err.toString()).isZero();
        return JSON.readTree(out.toString());
    }

    private static String[] pingpong(int port) {
        String[] args = new String[SHORT_PINGPONG.length + 3];
        args[0] = "pingpong";
        args[1] = "--peer";
        args[2] = "127.0.0.1:" + port;
        System.arraycopy(SHORT_PINGPONG, 0, args, 3, SHORT_PINGPONG.length);
        return args;
    }

    private static Matcher counts(String line) {
        Matcher m = COUNTS.matcher(line);
        assertThat(m.matches()).as(line).isTrue();
        return m;
    }

    @Test
    void servePrintsAnAcceptedLineAndTheAgentsCountsOfAPingPongAndAnRrRun() throws Exception {
        try (ServeRun serve = ServeRun.start("serve", "--port", "0")) {
            JsonNode pingpong = client(pingpong(serve.port()));
            String pingpongEnd = serve.await(l -> l.startsWith("[  1] ") && l.contains(" echoes "), 30);
            JsonNode rr = client("rr", "--peer", "127.0.0.1:" + serve.port(), "--flows", "2", "--duration", "200ms",
                    "--warmup", "50ms", "--json");
            String rrEnd = serve.await(l -> l.startsWith("[  2] ") && l.contains(" connections accepted "), 30);
            List<String> lines = serve.lines();

            assertThat(lines).anyMatch(l -> l.matches("\\[  1\\] accepted 127\\.0\\.0\\.1 port \\d+: "
                    + "linerate tcp ping-pong, up to 32 bytes"));
            Matcher p = counts(pingpongEnd);
            JsonNode remote = pingpong.path("detail").path("remote");
            // the agent's counts are the ones its client's result holds
            assertThat(p.group(3)).isEqualTo("echoes");
            assertThat(Long.parseLong(p.group(2))).isEqualTo(remote.path("echoes").asLong(-1));
            assertThat(p.group(5)).isEqualTo("bytes echoed");
            assertThat(Long.parseLong(p.group(4))).isEqualTo(remote.path("bytes").asLong(-1))
                    .isEqualTo(32 * Long.parseLong(p.group(2)));
            assertThat(p.group(6)).isEqualTo("done");

            assertThat(lines).anyMatch(l -> l.matches("\\[  2\\] accepted 127\\.0\\.0\\.1 port \\d+: "
                    + "linerate tcp_rr, 2 flow\\(s\\), 1 B requests, 1 B responses"));
            Matcher r = counts(rrEnd);
            JsonNode server = rr.path("detail").path("server");
            assertThat(r.group(3)).isEqualTo("connections accepted");
            assertThat(Long.parseLong(r.group(2))).isEqualTo(2).isEqualTo(server.path("accepts").asLong(-1));
            assertThat(r.group(5)).isEqualTo("responses served");
            assertThat(Long.parseLong(r.group(4))).isPositive().isEqualTo(server.path("served").asLong(-1));
            assertThat(r.group(6)).isEqualTo("done");
        }
    }

    @Test
    void quietPrintsNoLinesOfPingPongOrRrTests() throws Exception {
        List<String> printed;
        try (ServeRun serve = ServeRun.start("serve", "--port", "0", "--quiet")) {
            JsonNode pingpong = client(pingpong(serve.port()));
            JsonNode rr = client("rr", "--peer", "127.0.0.1:" + serve.port(), "--duration", "200ms", "--warmup", "50ms",
                    "--json");
            // both ran against this agent: its counts came back
            assertThat(pingpong.path("detail").path("remote").path("echoes").asLong()).isPositive();
            assertThat(rr.path("detail").path("server").path("served").asLong()).isPositive();
            serve.close();
            printed = serve.lines();
        }
        assertThat(printed).hasSize(1);
        assertThat(printed.get(0)).startsWith("# linerate ");
    }
}
