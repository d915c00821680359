package io.linerate.core.live;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The counters of one transfer or one progress report, as read from a counters file.
 *
 * @param id group id, unique within its process, from 1
 * @param kind what the group describes
 * @param label the group's label, such as {@code stream udp4 1400 B 10 s}
 * @param startMillis when the group was registered, ms since the epoch
 * @param values the counters read, by type; a counter the reader does not know is left out
 */
public record CounterGroup(long id, Kind kind, String label, long startMillis, Map<CounterType, Long> values) {
    /** What a group describes, and the counters a group of that kind has. */
    public enum Kind {
        /** One transfer: bytes, messages, loss, interval rate. */
        TRANSFER(CounterType.BYTES_SENT, CounterType.BYTES_RECEIVED, CounterType.MESSAGES_SENT,
                CounterType.MESSAGES_RECEIVED, CounterType.LOST, CounterType.RATE),
        /** The progress of a run of several transfers: {@link CounterType#DONE} of {@link CounterType#TOTAL}. */
        PROGRESS(CounterType.DONE, CounterType.TOTAL);

        private final List<CounterType> types;

        Kind(CounterType... types) {
            this.types = List.of(types);
        }

        /** @return the counters of a group of this kind, in the order they are allocated */
        public List<CounterType> types() {
            return types;
        }
    }

    /** Copies the values. */
    public CounterGroup {
        values = values.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(values));
    }

    /**
     * @param type a counter type
     * @return the value of the group's counter of that type, empty when the group has none
     */
    public OptionalLong value(CounterType type) {
        Long v = values.get(type);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }
}
