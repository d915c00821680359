package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.testsupport.VethPair;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link VethPair}'s set-up releases what it made when the set-up itself fails. Needs Linux and root. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class VethPairTest {

    /** @return this JVM's veth pairs' interfaces now */
    private static List<String> ours() throws IOException {
        String prefix = "lrt" + ProcessHandle.current().pid() % 100_000 + "x";
        try (Stream<Path> s = Files.list(Path.of("/sys/class/net"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).toList();
        }
    }

    @Test
    void aSetUpInterruptedPartWayLeavesNoInterfaceAndKeepsTheInterrupt() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/sys/class/net")), "skipped: no /sys/class/net (not Linux)");
        assumeTrue(AfPacket.isAvailable(), () -> "skipped: needs root: " + AfPacket.unavailabilityCause().orElse(""));
        assertThat(ours()).isEmpty();
        // as a test's timeout does: the wait for an ip command, or the write to /proc, fails part-way
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(VethPair::create).isInstanceOf(IOException.class);
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
        }
        assertThat(ours()).as("interfaces left behind").isEmpty();
    }

    @Test
    void closeFromAnInterruptedThreadStillDeletesThePair() throws Exception {
        assumeTrue(AfPacket.isAvailable(), () -> "skipped: needs root: " + AfPacket.unavailabilityCause().orElse(""));
        VethPair v = VethPair.create();
        assertThat(VethPair.exists(v.a)).isTrue();
        Thread.currentThread().interrupt();
        try {
            v.close();
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
        }
        assertThat(VethPair.exists(v.a)).isFalse();
        assertThat(VethPair.exists(v.b)).isFalse();
    }
}
