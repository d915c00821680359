package io.linerate.core.live;

import java.util.Optional;

/**
 * What one counter of a {@link CounterGroup} counts. The id is the counter's Agrona type id in
 * the file. Byte and message counts are totals since the transfer started (warm-up included);
 * {@link #RATE} is the receiver goodput of the last closed interval.
 */
public enum CounterType {
    /** Payload bytes the kernel accepted from the sender. */
    BYTES_SENT(1, "bytes sent"),
    /** Payload bytes the receiver counted (UDP: distinct datagrams only). */
    BYTES_RECEIVED(2, "bytes received"),
    /** Writes (TCP), datagrams (UDP) or frames the sender completed. */
    MESSAGES_SENT(3, "messages sent"),
    /** Distinct datagrams or frames received; 0 for TCP, which has no message boundaries. */
    MESSAGES_RECEIVED(4, "messages received"),
    /** Datagrams or frames found missing by sequence gaps so far (UDP); 0 for TCP. */
    LOST(5, "lost"),
    /** Receiver goodput of the last closed interval, bit/s; -1 before the first interval or for one with no length. */
    RATE(6, "interval rate bit/s"),
    /** Steps of a run completed (transfers of a suite). */
    DONE(7, "done"),
    /** Steps of a run in all. */
    TOTAL(8, "total");

    private final int id;
    private final String description;

    CounterType(int id, String description) {
        this.id = id;
        this.description = description;
    }

    /** @return the Agrona type id of counters of this type */
    public int id() {
        return id;
    }

    /** @return what it counts, with its unit */
    public String description() {
        return description;
    }

    /**
     * @param id an Agrona type id read from a file
     * @return the type with this id, empty for an id this version does not know
     */
    public static Optional<CounterType> ofId(int id) {
        for (CounterType t : values()) {
            if (t.id == id) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
