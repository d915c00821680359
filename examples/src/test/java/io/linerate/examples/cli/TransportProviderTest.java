package io.linerate.examples.cli;

import static io.linerate.examples.cli.LinerateCliTest.linerate;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.examples.cli.LinerateCliTest.Run;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * A provider outside linerate's jars: {@code src/test/fake-provider} holds a services file naming
 * {@link FakeTransport} and a class that does not exist, as a third-party jar with one good and
 * one broken provider would. The CLI finds providers through the thread's context class loader.
 */
class TransportProviderTest {

    private static <T> T withFakeProvider(Callable<T> body) throws Exception {
        URL dir = Path.of("src/test/fake-provider").toUri().toURL();
        Thread thread = Thread.currentThread();
        ClassLoader saved = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir}, TransportProviderTest.class.getClassLoader())) {
            thread.setContextClassLoader(loader);
            return body.call();
        } finally {
            thread.setContextClassLoader(saved);
        }
    }

    @Test
    void aThirdPartyProviderIsListedBesideTheBrokenOneAndLinerateOwn() throws Exception {
        Run r = withFakeProvider(() -> linerate("transports"));

        assertThat(r.lines()).contains("nio\tavailable", "fake\tavailable");
        assertThat(r.lines()).anyMatch(l -> l.startsWith("# failed to load: ") && l.contains("io.linerate.examples.cli.MissingTransport"));
        assertThat(r.exit()).isEqualTo(Linerate.FAILED);
    }

    @Test
    void aThirdPartyProviderRunsThroughTheSamePath() throws Exception {
        Run r = withFakeProvider(() -> linerate("stream", "--transport", "fake", "--duration", "1s", "--json"));

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out()).get("detail");
        // FakeTransport moves 1,250,000 bytes in a 1 s window: 1,250,000 x 8 bit / 1 s = 10,000,000 bit/s.
        assertThat(j.get("bits_per_second").asDouble()).isEqualTo(10_000_000.0);
        assertThat(j.get("bytes_received").asLong()).isEqualTo(1_250_000L);
    }

    @Test
    void anUnknownTransportIsAUsageErrorNamingTheOnesPresent() {
        Run r = linerate("stream", "--transport", "nope", "--duration", "1s");

        assertThat(r.exit()).isEqualTo(Linerate.USAGE);
        assertThat(r.err()).contains("no transport named 'nope'; available: nio");
    }
}
