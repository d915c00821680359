package io.linerate.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.spi.cpu.CpuList;
import io.linerate.core.spi.cpu.ThreadAffinity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pins a thread of its own (never the test's) and reads the set back from the kernel's account of it. */
class SchedAffinityTest {
    private static ExecutorService thread;

    @BeforeAll
    static void linux() {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/status")), "needs Linux's /proc/thread-self (3.17 or later)");
        assumeTrue(new SchedAffinity().unavailabilityCause().isEmpty(), "liblinerate-native.so does not load here");
        thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "pinned"));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (thread != null) {
            thread.shutdownNow();
            assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static <T> T onThread(Callable<T> task) throws Exception {
        return thread.submit(task).get(30, TimeUnit.SECONDS);
    }

    /** Cpus_allowed_list of the calling thread, read here as proc(5) documents it. */
    private static String kernelsList() throws IOException {
        return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()).strip();
    }

    @Test
    void theProviderIsFoundAndReadsTheSetTheKernelReports() throws Exception {
        assertThat(ThreadAffinity.unavailabilityCause()).isEmpty();
        String[] both = onThread(() -> new String[] {CpuList.format(new SchedAffinity().currentThread()), kernelsList()});
        assertThat(both[0]).isEqualTo(both[1]);
    }

    @Test
    void pinsToTheHighestAllowedCpuAndGivesTheSetBackOnClose() throws Exception {
        String[] seen = onThread(() -> {
            String before = kernelsList();
            BitSet allowed = CpuList.parse(before);
            int cpu = allowed.length() - 1;
            String pinned;
            String readBack;
            try (ThreadAffinity.Pin pin = ThreadAffinity.pin(cpu)) {
                pinned = kernelsList();
                readBack = ThreadAffinity.readBack().orElseThrow();
                assertThat(pin.before()).isEqualTo(before);
            }
            return new String[] {Integer.toString(cpu), pinned, readBack, before, kernelsList()};
        });
        assertThat(seen[1]).isEqualTo(seen[0]);
        assertThat(seen[2]).isEqualTo(seen[0]);
        assertThat(seen[4]).isEqualTo(seen[3]);
    }

    @Test
    void aCpuOutsideTheThreadsSetIsRefusedNamingTheSet() throws Exception {
        String message = onThread(() -> {
            String before = kernelsList();
            int outside = CpuList.parse(before).length();
            try {
                ThreadAffinity.pin(outside).close();
                return "pinned to " + outside;
            } catch (IllegalArgumentException e) {
                assertThat(kernelsList()).isEqualTo(before);
                return e.getMessage();
            }
        });
        assertThat(message).contains("is not in this thread's CPU set").contains("allowed: one of");
        assertThatThrownBy(() -> ThreadAffinity.pin(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CPU -1 is out of range; allowed: 0-1023");
        assertThatThrownBy(() -> new SchedAffinity().setCurrentThread(new BitSet()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed: one or more CPUs 0-1023");
    }

    @Test
    void aPinIsClosedOnItsOwnThread() throws Exception {
        ThreadAffinity.Pin pin = onThread(() -> ThreadAffinity.pin(CpuList.parse(kernelsList()).nextSetBit(0)));
        assertThatThrownBy(pin::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("pinned");
        onThread(() -> {
            pin.close();
            return null;
        });
    }
}
