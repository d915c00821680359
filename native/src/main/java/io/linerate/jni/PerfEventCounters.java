package io.linerate.jni;

import io.linerate.core.spi.cost.CpuCounterProvider;
import io.linerate.core.spi.cost.CpuEvent;
import io.linerate.core.spi.cost.ThreadCounter;
import io.linerate.jni.internal.Jni;
import io.linerate.jni.internal.Perf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-thread CPU event counters through Linux's {@code perf_event_open(2)}, counting user and
 * kernel work of the calling thread on any CPU. Registered for {@link java.util.ServiceLoader} as
 * a {@link CpuCounterProvider} ({@code META-INF/services/io.linerate.core.spi.cost.CpuCounterProvider}
 * in {@code linerate-native}), so any measurement counts with this jar on the class path.
 * {@link CpuEvent#INSTRUCTIONS} counts {@code PERF_COUNT_HW_INSTRUCTIONS} (instructions),
 * {@link CpuEvent#TASK_CLOCK} {@code PERF_COUNT_SW_TASK_CLOCK} (ns on a CPU); both from
 * {@code <linux/perf_event.h>}. Counting kernel work needs {@code kernel.perf_event_paranoid} at 1
 * or below, or CAP_PERFMON (root has it); hardware events need a PMU, which most virtual machines
 * do not offer.
 */
public final class PerfEventCounters implements CpuCounterProvider {
    private static final Path PARANOID = Path.of("/proc/sys/kernel/perf_event_paranoid");

    @Override
    public String name() {
        return "perf_event";
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.ofNullable(Jni.LIBRARY.tryLoad());
    }

    /**
     * {@inheritDoc}
     *
     * @throws UnsupportedOperationException when {@code liblinerate-native.so} cannot be loaded
     *     (the loader's cause), or {@code perf_event_open(2)} fails: {@code perf_event_open(EVENT)
     *     failed: ENAME (text)} and, for ENOENT, EOPNOTSUPP, ENODEV, EACCES or EPERM, what it means
     */
    @Override
    public ThreadCounter open(CpuEvent event) {
        String notLoaded = Jni.LIBRARY.tryLoad();
        if (notLoaded != null) {
            throw new UnsupportedOperationException(notLoaded);
        }
        int fd = switch (event) {
            case INSTRUCTIONS -> Perf.open(Perf.TYPE_HARDWARE, Perf.HW_INSTRUCTIONS);
            case TASK_CLOCK -> Perf.open(Perf.TYPE_SOFTWARE, Perf.SW_TASK_CLOCK);
        };
        if (fd < 0) {
            throw new UnsupportedOperationException("perf_event_open(" + event.label() + ") failed: "
                    + Errno.describe(fd) + hint(-fd));
        }
        return new Counter(fd);
    }

    private static String hint(int errno) {
        if (errno == Errno.ENOENT || errno == Errno.EOPNOTSUPP || errno == Errno.ENODEV) {
            return ": this host has no counter for the event (virtual machines often expose no hardware counters)";
        }
        if (errno == Errno.EACCES || errno == Errno.EPERM) {
            return ": kernel.perf_event_paranoid is " + paranoid()
                    + "; counting kernel work needs 1 or below, or CAP_PERFMON";
        }
        return "";
    }

    private static String paranoid() {
        try {
            return Files.readString(PARANOID).strip();
        } catch (java.io.IOException | SecurityException e) {
            return "unreadable (" + e.getMessage() + ")";
        }
    }

    /** One open counter; closing it twice closes the descriptor once. */
    private static final class Counter implements ThreadCounter {
        private final AtomicInteger fd;

        Counter(int fd) {
            this.fd = new AtomicInteger(fd);
        }

        @Override
        public long read() {
            int f = fd.get();
            if (f < 0) {
                throw new IllegalStateException("counter is closed");
            }
            long v = Perf.read(f);
            if (v < 0) {
                throw new IllegalStateException("reading a perf_event counter failed: " + Errno.describe((int) v));
            }
            return v;
        }

        @Override
        public void close() {
            int f = fd.getAndSet(-1);
            if (f >= 0) {
                Jni.close(f);
            }
        }
    }
}
