package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.regression.MetricAssertions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One quantity, one key, on the command line's roads (docs/metrics.md): a baseline saved one way
 * gates a run made another way with every series compared. The point is the keys, not the speed:
 * the tolerance is 100 %, so only a missing series or a key mismatch fails.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OneKeyPerQuantityTest {
    private static final Pattern TOTALS = Pattern.compile("# Totals: pass:(\\d+) fail:(\\d+) xfail:(\\d+) xpass:0 skip:(\\d+) error:(\\d+)");
    private static final Pattern SAVED = Pattern.compile("saved baseline .* \\((\\d+) series\\)");

    @TempDir
    Path dir;

    private Path write(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private int save(Path input, String name) {
        LinerateCliTest.Run r = LinerateCliTest.linerate("gate", "--input", input.toString(), "--save", dir.resolve(name).toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        Matcher m = SAVED.matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    /**
     * Gates {@code input} against baseline {@code name}: every one of its {@code series} compared, none missing,
     * skipped or in error. Whether a compared series passed is the host's doing (a loaded host loses UDP datagrams
     * on loopback in one run and not in the other), so a regression verdict counts as compared.
     */
    private void comparesEverySeries(Path input, String name, int series) {
        LinerateCliTest.Run r = LinerateCliTest.linerate("gate", "--input", input.toString(),
                "--baseline", dir.resolve(name).toString(), "--tolerance", "100");
        assertThat(r.exit()).as(r.out() + r.err()).isBetween(0, 1);
        assertThat(r.out()).doesNotContain("missing").doesNotContain("baseline@gate");
        assertThat(r.out().lines().filter(l -> l.startsWith("not ok "))).as(r.out())
                .allSatisfy(l -> assertThat(l).contains(" # regressed "));
        Matcher m = TOTALS.matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        // pass, regressions and advisory regressions (xfail) are the compared verdicts; nothing skipped or erred
        assertThat(Integer.parseInt(m.group(1)) + Integer.parseInt(m.group(2)) + Integer.parseInt(m.group(3)))
                .as(r.out()).isEqualTo(series);
        assertThat(m.group(4) + m.group(5)).isEqualTo("00");
    }

    @Test
    void loopbackJsonAndKtapGateEachOther() throws Exception {
        List<String> suite = List.of("loopback", "--markers", "tcp4,udp4", "--duration", "300ms", "--warmup", "100ms",
                "--rate", "50M");
        LinerateCliTest.Run json = LinerateCliTest.linerate(concat(suite, "--json"));
        LinerateCliTest.Run ktap = LinerateCliTest.linerate(concat(suite, "--ktap"));
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(ktap.exit()).as(ktap.err()).isZero();
        Path j = write("suite.json", json.out());
        Path k = write("suite.log", ktap.out());
        int fromJson = save(j, "json-baseline.json");
        int fromKtap = save(k, "ktap-baseline.json");
        // tcp4: goodput and service demand; udp4 paced at 50 Mbit/s also loss and jitter (when some arrived)
        assertThat(fromJson).isEqualTo(fromKtap).isGreaterThanOrEqualTo(4);
        comparesEverySeries(k, "json-baseline.json", fromJson);
        comparesEverySeries(j, "ktap-baseline.json", fromKtap);
    }

    @Test
    void aBaselineSavedInJUnitGatesACommandLineRunOfTheSameTransport() throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).duration(Duration.ofMillis(300))
                .warmup(Duration.ofMillis(100)).rateBitsPerSecond(100_000_000).build();
        TransferResult result;
        try (Transfer t = Transports.select(null, spec).open(spec, Clock.system())) {
            result = t.run();
        }
        Path junitBaseline = dir.resolve("junit.json");
        int series = MetricAssertions.assertThat(result).saveBaseline(junitBaseline, false).series().size();
        assertThat(Files.readString(junitBaseline)).contains("\"transport\" : \"nio\"").contains("\"test\" : \"tcp4\"");

        LinerateCliTest.Run cli = LinerateCliTest.linerate("stream", "--protocol", "tcp", "--duration", "300ms",
                "--warmup", "100ms", "--rate", "100M", "--ktap");
        assertThat(cli.exit()).as(cli.err()).isZero();
        comparesEverySeries(write("stream.log", cli.out()), "junit.json", series);
    }

    private static String[] concat(List<String> a, String... b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(List.of(b));
        return all.toArray(new String[0]);
    }
}
