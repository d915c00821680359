package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's path from the README: run the loopback suite, save a baseline, gate the saved run
 * (passes, unchanged) and a rerun with the payload cut to one byte so throughput falls (fails,
 * exit 1, naming the metric). The transfers are paced at 400 Mbit/s; one-byte writes, a system
 * call each, cannot come within 20% of that on any host.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GateEndToEndTest {
    @TempDir
    Path dir;

    private Path suite(String name, String payload) throws Exception {
        LinerateCliTest.Run r = LinerateCliTest.linerate("loopback", "--ktap", "--markers", "tcp4", "--repeat", "3",
                "--rate", "400M", "--payload", payload, "--duration", "300ms", "--warmup", "100ms");
        assertThat(r.exit()).as(r.err()).isZero();
        Path log = dir.resolve(name);
        Files.writeString(log, r.out(), StandardCharsets.UTF_8);
        return log;
    }

    @Test
    void savedBaselineGatesAnUnchangedAndACutRerun() throws Exception {
        suite("base.log", "1220");
        LinerateCliTest.Run save = LinerateCliTest.linerate("gate",
                "--input", dir.resolve("base.log").toString(), "--save", dir.resolve("baseline.json").toString());
        assertThat(save.exit()).as(save.out() + save.err()).isZero();
        assertThat(dir.resolve("baseline.json")).exists();

        // the run the baseline was saved from, gated against it, changes by exactly 0: a rerun's
        // figures depend on how busy the host is, these do not
        LinerateCliTest.Run same = LinerateCliTest.linerate("gate", "--input", dir.resolve("base.log").toString(),
                "--baseline", dir.resolve("baseline.json").toString(), "--tolerance", "20");
        assertThat(same.exit()).as(same.out() + same.err()).isZero();
        // the sender's retransmits come through sock_diag (linerate-native is on the class path), reported only
        assertThat(same.out()).contains("ok 1 tcp4/tcp4_mbps@local").contains("+0.0%")
                .contains("ok 2 tcp4/tcp4_retransmits@local").contains("ok 3 tcp4/tcp4_cpu_us_per_kb@local")
                .contains("# Totals: pass:3 fail:0");

        suite("cut.log", "1");
        LinerateCliTest.Run cut = LinerateCliTest.linerate("gate", "--input", dir.resolve("cut.log").toString(),
                "--baseline", dir.resolve("baseline.json").toString(), "--tolerance", "20");
        assertThat(cut.exit()).as(cut.out() + cut.err()).isEqualTo(1);
        assertThat(cut.out()).containsPattern("not ok 1 tcp4/tcp4_mbps@local # regressed -\\d+\\.\\d%");
    }
}
