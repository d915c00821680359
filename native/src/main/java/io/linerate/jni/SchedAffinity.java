package io.linerate.jni;

import io.linerate.core.spi.cpu.CpuList;
import io.linerate.core.spi.cpu.ThreadAffinityProvider;
import io.linerate.jni.internal.Affinity;
import io.linerate.jni.internal.Jni;
import java.util.BitSet;
import java.util.Optional;

/**
 * The calling thread's CPU set through Linux's {@code sched_setaffinity(2)} and
 * {@code sched_getaffinity(2)} (pid 0: the calling thread). Registered for
 * {@link java.util.ServiceLoader} as a {@link ThreadAffinityProvider}
 * ({@code META-INF/services/io.linerate.core.spi.cpu.ThreadAffinityProvider} in
 * {@code linerate-native}), so that {@code --affinity} pins threads with this jar on the class path.
 */
public final class SchedAffinity implements ThreadAffinityProvider {

    @Override
    public String name() {
        return "sched_setaffinity";
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.ofNullable(Jni.LIBRARY.tryLoad());
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException for an empty set, a CPU above {@value CpuList#MAX_CPU}, or
     *     when {@code sched_setaffinity(2)} fails: {@code sched_setaffinity(LIST) failed: ENAME (text)}
     */
    @Override
    public void setCurrentThread(BitSet cpus) {
        loaded();
        if (cpus.isEmpty() || cpus.length() > CpuList.MAX_CPU + 1) {
            throw new IllegalArgumentException("CPU set '" + CpuList.format(cpus) + "' is out of range; allowed: "
                    + "one or more CPUs 0-" + CpuList.MAX_CPU);
        }
        int r = Affinity.set(cpus.toLongArray());
        if (r < 0) {
            throw new IllegalArgumentException("sched_setaffinity(" + CpuList.format(cpus) + ") failed: "
                    + Errno.describe(r) + (r == -Errno.EINVAL ? ": none of these CPUs is online and allowed" : ""));
        }
    }

    /** @throws IllegalStateException naming the call and its error, should {@code sched_getaffinity(2)} fail */
    @Override
    public BitSet currentThread() {
        loaded();
        long[] words = new long[Affinity.WORDS];
        int r = Affinity.get(words);
        if (r < 0) {
            throw new IllegalStateException("sched_getaffinity failed: " + Errno.describe(r));
        }
        return BitSet.valueOf(words);
    }

    private static void loaded() {
        String cause = Jni.LIBRARY.tryLoad();
        if (cause != null) {
            throw new UnsupportedOperationException(cause);
        }
    }
}
