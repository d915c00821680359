package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.linerate.regression.internal.Iperf3Reader;
import io.linerate.regression.internal.LinerateJsonReader;
import io.linerate.regression.internal.LogReader;
import io.linerate.regression.internal.TwisterReader;
import io.linerate.regression.internal.UnitRange;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CharacterCodingException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets for everything the gate reads from a file: each built-in {@link MetricReader}
 * ({@link LogReader}, {@link Iperf3Reader}, {@link TwisterReader}, {@link LinerateJsonReader}), the
 * policy file ({@link Policies#parseFile}, which validates each policy with {@code PolicyParser})
 * and the baseline ({@link Baseline#parse}). The input is decoded from UTF-8 as the gate decodes a
 * file (a malformed byte becomes U+FFFD). Invariants: a reader never throws, and a policy file or
 * baseline throws only {@link IllegalArgumentException} naming the file; every sample read is
 * finite and allowed by its unit ({@link UnitRange}); every problem names the file; a leading
 * byte-order mark changes nothing; a baseline that reads writes as itself.
 *
 * <p>The normal build replays the seeds in {@code ReadersFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} one target at a time is fuzzed for its {@code maxDuration}.
 */
class ReadersFuzzTest {
    private static final String SOURCE = "fuzz.input";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:/-]+");

    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void logReader(byte[] input) {
        reads(new LogReader(), text(input));
    }

    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void iperf3Reader(byte[] input) {
        reads(new Iperf3Reader(), text(input));
    }

    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void twisterReader(byte[] input) {
        reads(new TwisterReader(), text(input));
    }

    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void linerateJsonReader(byte[] input) {
        reads(new LinerateJsonReader(), text(input));
    }

    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void policyFile(byte[] input) {
        String text = text(input);
        Policies p;
        try {
            p = Policies.parseFile(SOURCE, text);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("policy file " + SOURCE);
            return;
        }
        for (Policy policy : p.filePolicies()) {
            if (policy.reportOnly()) {
                // a policy without a regression rule has no tolerance or direction: it only reports
                assertThat(policy.compare()).isEqualTo(Policy.REPORTED);
                assertThatThrownBy(policy::relativeTolerance).isInstanceOf(IllegalStateException.class);
            } else {
                assertThat(policy.relativeTolerance()).isBetween(0.0, 1.0);
            }
            assertThat(policy.absoluteTolerance()).isNotNegative().isFinite();
            assertThat(policy.alpha()).isGreaterThan(0).isLessThan(1);
            assertThat(policy.minRuns()).isPositive();
            assertThat(policy.omitFirstSeconds()).isNotNegative().isFinite();
            assertThat(policy.omitLastSeconds()).isNotNegative().isFinite();
        }
        if (!text.startsWith("\uFEFF")) {
            assertThat(Policies.parseFile(SOURCE, "\uFEFF" + text).filePolicies()).isEqualTo(p.filePolicies());
        }
    }

    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void baseline(byte[] input) {
        String text = text(input);
        Baseline b;
        try {
            b = Baseline.parse(SOURCE, text);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("baseline " + SOURCE);
            return;
        }
        for (Baseline.Series s : b.series()) {
            for (Baseline.Run r : s.runs()) {
                for (double v : r.samples()) {
                    assertThat(UnitRange.refusal(v, s.unit())).as("%s %s", v, s.unit()).isNull();
                }
            }
        }
        String written = b.toJson();
        assertThat(Baseline.parse(SOURCE, written).toJson()).isEqualTo(written);
        if (!text.startsWith("\uFEFF")) {
            assertThat(Baseline.parse(SOURCE, "\uFEFF" + text).toJson()).isEqualTo(written);
        }
    }

    private static void reads(MetricReader reader, String text) {
        MetricSet out = read(reader, text);
        for (Observation o : out.observations()) {
            assertThat(UnitRange.refusal(o.value(), o.unit())).as("%s %s", o.value(), o.unit()).isNull();
            assertThat(Double.isFinite(o.timeSeconds())).isTrue();
            assertThat(o.key().name()).matches(NAME);
            assertThat(o.key().host()).isNotEmpty();
            assertThat(o.source()).isEqualTo(SOURCE);
        }
        for (Problem p : out.errors()) {
            assertThat(p.source()).isEqualTo(SOURCE);
            assertThat(p.message()).isNotBlank();
            assertThat(p.line()).isNotNegative();
        }
        if (!text.startsWith("\uFEFF")) {
            MetricSet marked = read(reader, "\uFEFF" + text);
            assertThat(marked.observations()).isEqualTo(out.observations());
            assertThat(marked.errors()).isEqualTo(out.errors());
        }
    }

    private static MetricSet read(MetricReader reader, String text) {
        MetricSet out = new MetricSet();
        if (reader.accepts(text)) {
            reader.read(SOURCE, text, out);
        }
        return out;
    }

    /** @return {@code input} decoded as the gate decodes a file: UTF-8, a malformed byte read as U+FFFD */
    private static String text(byte[] input) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(input)).toString();
        } catch (CharacterCodingException e) {
            throw new AssertionError("a replacing decoder cannot fail", e);
        }
    }
}
