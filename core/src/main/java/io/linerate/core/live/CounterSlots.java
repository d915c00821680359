package io.linerate.core.live;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongConsumer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The counters of one group and the heartbeat of their file, allocated together and freed
 * together. Each counter is written through a {@link LongConsumer}: an ordered store into the file
 * ({@link AtomicCounter#setRelease}), or nothing for a detached group, so the owner's code has no
 * branch for "live counters are off" and a detached group needs no Agrona at all.
 */
final class CounterSlots implements AutoCloseable {
    private static final LongConsumer NOWHERE = v -> { };

    private final Map<CounterType, AtomicCounter> counters;
    private final AtomicBuffer header;
    private final Runnable release;
    private boolean closed;

    private CounterSlots(Map<CounterType, AtomicCounter> counters, AtomicBuffer header, Runnable release) {
        this.counters = counters;
        this.header = header;
        this.release = release;
    }

    /** Counters backed by nothing another process can see. */
    static CounterSlots detached(CounterType... types) {
        return new CounterSlots(Map.of(), null, () -> { });
    }

    /**
     * Allocates a group's counters in a file; frees what it allocated if the file runs out of slots.
     *
     * @param release called once when the group closes, after its counters are freed
     * @throws IllegalStateException when the file has no room for the group
     */
    static CounterSlots allocate(CountersFile file, long groupId, CounterGroup.Kind kind, String label,
                                 Runnable release, CounterType... types) {
        long start = System.currentTimeMillis();
        Map<CounterType, AtomicCounter> m = new EnumMap<>(CounterType.class);
        try {
            for (CounterType t : types) {
                m.put(t, file.allocate(t, groupId, start, kind, label));
            }
        } catch (RuntimeException e) {
            m.values().forEach(AtomicCounter::close);
            throw e;
        }
        return new CounterSlots(m, file.header(), release);
    }

    /** @return where values of this type go: the counter's ordered store, or nowhere when detached */
    LongConsumer counter(CounterType type) {
        AtomicCounter c = counters.get(type);
        return c == null ? NOWHERE : c::setRelease;
    }

    /** Stamps the file's heartbeat with the wall clock (a vDSO read, no system call). */
    void heartbeat() {
        if (header != null) {
            header.putLongRelease(CountersLayout.HEARTBEAT_OFFSET, System.currentTimeMillis());
        }
    }

    /** Frees the counters (a reader stops seeing the group), then releases the file. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        counters.values().forEach(AtomicCounter::close);
        release.run();
    }
}
