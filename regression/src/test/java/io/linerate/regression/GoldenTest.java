package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.testsupport.GoldenFiles;
import java.io.IOException;
import java.util.Locale;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seals the report formats with golden files, under the root locale and under a locale with
 * decimal commas. To rewrite the files after a deliberate format change, run the tests with
 * {@code -Dlinerate.golden.update=true} and review the diff.
 */
class GoldenTest {
    private Locale saved;

    @BeforeEach
    void saveLocale() {
        saved = Locale.getDefault();
    }

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(saved);
    }

    static GateReport scenario() {
        String mw = GateTest.policy("{\"name\":\"udp6_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"method\":\"mann_whitney\"}");
        String advisory = GateTest.policy("{\"name\":\"tcp4_nodelay_mbps\",\"regression\":{\"better\":\"higher\","
                + "\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"advisory\":true}");
        String labelled = "# ktap-metric-json: {\"host\":\"remote\",\"name\":\"throughput\",\"shape\":\"scalar\","
                + "\"time\":1,\"unit\":\"Mbit/s\",\"value\":%s,\"labels\":{\"note\":\"a<b&c\"}}\n";
        String base = mw + advisory
                + GateTest.metrics("tcp4_mbps", "Mbit/s", 92.1)
                + GateTest.metrics("udp4_mbps", "Mbit/s", 1000)
                + GateTest.metrics("udp4_jitter_ms", "ms", 0.0123)
                + GateTest.metrics("tcp6_mbps", "Mbit/s", 500)
                + GateTest.metrics("udp6_mbps", "Mbit/s", 400, 401, 402, 403, 404)
                + GateTest.metrics("tcp4_nodelay_mbps", "Mbit/s", 100)
                + String.format(Locale.ROOT, labelled, "321.165");
        String current = mw + advisory
                + GateTest.metrics("tcp4_mbps", "Mbit/s", 85.6)
                + GateTest.metrics("udp4_mbps", "Mbit/s", 1100)
                + GateTest.metrics("udp4_jitter_ms", "ms", 0.0125)
                + GateTest.metrics("udp6_mbps", "Mbit/s", 300, 301, 302, 303)
                + GateTest.metrics("tcp4_nodelay_mbps", "Mbit/s", 60)
                + String.format(Locale.ROOT, labelled, "318.2")
                + "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp4_frag_mbps\",\"shape\":\"scalar\",\"value\":\n";
        Baseline b = Baseline.of(MetricReaders.read("base.log", base), GateTest.ENV, GateTest.CREATED);
        return Gate.create().baseline(b).environment(GateTest.ENV).run(MetricReaders.read("run.log", current));
    }

    static GateReport currentOnly() {
        return Gate.create().run(TestFiles.read("loopback.log"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"root", "de-DE"})
    void ktap(String locale) throws IOException {
        check(locale, "gate.ktap", Reports::ktap);
    }

    @ParameterizedTest
    @ValueSource(strings = {"root", "de-DE"})
    void json(String locale) throws IOException {
        check(locale, "gate.json", Reports::json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"root", "de-DE"})
    void markdown(String locale) throws IOException {
        check(locale, "gate.md", Reports::markdown);
    }

    @ParameterizedTest
    @ValueSource(strings = {"root", "de-DE"})
    void svg(String locale) throws IOException {
        check(locale, "gate.svg", r -> Reports.svg(r, "linerate gate <loopback> & more"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"root", "de-DE"})
    void svgWithoutBaseline(String locale) throws IOException {
        Locale.setDefault(locale.equals("root") ? Locale.ROOT : Locale.GERMANY);
        compare("current-only.svg", Reports.svg(currentOnly(), "linerate loopback"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"root", "de-DE"})
    void baselineFile(String locale) throws IOException {
        Locale.setDefault(locale.equals("root") ? Locale.ROOT : Locale.GERMANY);
        compare("baseline.json", Gate.create().baselineOf(TestFiles.read("loopback.log"), GateTest.ENV, GateTest.CREATED).toJson());
    }

    private void check(String locale, String file, Function<GateReport, String> format) throws IOException {
        Locale.setDefault(locale.equals("root") ? Locale.ROOT : Locale.GERMANY);
        assertThat(Locale.getDefault().getLanguage()).isEqualTo(locale.equals("root") ? "" : "de");
        compare(file, format.apply(scenario()));
    }

    private static void compare(String file, String actual) throws IOException {
        GoldenFiles.assertMatches(file, actual);
    }
}
