package io.linerate.core.live;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * Reads a counters file written by another process (or this one) through a read-only mapping,
 * with Agrona's {@link CountersReader}. The writer is never touched: it cannot tell that it is
 * read. Layout: {@link CountersLayout}.
 *
 * <p>A group's counters are allocated and freed one at a time, so a reading can catch a group
 * half made or half gone; such a group is left out of the reading.
 */
public final class CountersFileReader {
    private CountersFileReader() {}

    /**
     * Reads one file once.
     *
     * @param file a counters file
     * @return the counters, or empty when the file is gone, is not ready yet, or is not a counters file
     *     of this layout version
     * @throws IOException if the file exists but cannot be read
     */
    public static Optional<ProcessCounters> read(Path file) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(CountersLayout.HEADER_LENGTH).order(ByteOrder.nativeOrder());
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            while (header.hasRemaining() && ch.read(header, header.position()) > 0) {
                // read the whole header
            }
            if (header.hasRemaining() || !validHeader(header, size)) {
                return Optional.empty();
            }
            // the mapping outlives the channel, and the file's removal
            map = ch.map(FileChannel.MapMode.READ_ONLY, 0, CountersLayout.HEADER_LENGTH
                    + (long) header.getInt(CountersLayout.METADATA_LENGTH_OFFSET)
                    + header.getInt(CountersLayout.VALUES_LENGTH_OFFSET));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        int metaLength = header.getInt(CountersLayout.METADATA_LENGTH_OFFSET);
        int valuesLength = header.getInt(CountersLayout.VALUES_LENGTH_OFFSET);
        try {
            UnsafeBuffer all = new UnsafeBuffer(map);
            UnsafeBuffer meta = new UnsafeBuffer(all, CountersLayout.HEADER_LENGTH, metaLength);
            UnsafeBuffer values = new UnsafeBuffer(all, CountersLayout.HEADER_LENGTH + metaLength, valuesLength);
            List<CounterGroup> groups = groups(new CountersReader(meta, values, StandardCharsets.US_ASCII));
            return Optional.of(new ProcessCounters(file, all.getLong(CountersLayout.PID_OFFSET),
                    all.getLong(CountersLayout.PROCESS_START_OFFSET), all.getLong(CountersLayout.CREATED_OFFSET),
                    all.getLongVolatile(CountersLayout.HEARTBEAT_OFFSET), groups));
        } finally {
            IoUtil.unmap(map);
        }
    }

    /**
     * @return whether the header names this layout, is ready, and fits in a file of this size
     */
    static boolean validHeader(ByteBuffer header, long fileSize) {
        byte[] magic = new byte[CountersLayout.MAGIC.length];
        header.get(0, magic);
        if (!Arrays.equals(magic, CountersLayout.MAGIC) || header.getInt(CountersLayout.VERSION_OFFSET) != CountersLayout.VERSION) {
            return false;
        }
        int metaLength = header.getInt(CountersLayout.METADATA_LENGTH_OFFSET);
        int valuesLength = header.getInt(CountersLayout.VALUES_LENGTH_OFFSET);
        return metaLength > 0 && valuesLength > 0
                && metaLength == valuesLength / CountersReader.COUNTER_LENGTH * CountersReader.METADATA_LENGTH
                && valuesLength % CountersReader.COUNTER_LENGTH == 0
                && CountersLayout.HEADER_LENGTH + (long) metaLength + valuesLength <= fileSize;
    }

    private static List<CounterGroup> groups(CountersReader reader) {
        Map<Long, GroupBuilder> byId = new TreeMap<>();
        reader.forEach((counterId, typeId, key, label) -> {
            Optional<CounterType> type = CounterType.ofId(typeId);
            int kind = key.getInt(CountersLayout.KEY_GROUP_KIND_OFFSET);
            if (type.isEmpty() || kind < 0 || kind >= CounterGroup.Kind.values().length) {
                return; // written by a later version: skip what this one cannot name
            }
            long id = key.getLong(CountersLayout.KEY_GROUP_ID_OFFSET);
            GroupBuilder g = byId.computeIfAbsent(id, k -> new GroupBuilder(k, CounterGroup.Kind.values()[kind],
                    label, key.getLong(CountersLayout.KEY_GROUP_START_OFFSET)));
            g.values.put(type.get(), reader.getCounterValue(counterId));
        });
        List<CounterGroup> out = new ArrayList<>(byId.size());
        for (GroupBuilder g : byId.values()) {
            if (g.values.keySet().containsAll(g.kind.types())) { // not half allocated or half freed
                out.add(new CounterGroup(g.id, g.kind, g.label, g.start, g.values));
            }
        }
        return out;
    }

    private static final class GroupBuilder {
        final long id;
        final CounterGroup.Kind kind;
        final String label;
        final long start;
        final Map<CounterType, Long> values = new EnumMap<>(CounterType.class);

        GroupBuilder(long id, CounterGroup.Kind kind, String label, long start) {
            this.id = id;
            this.kind = kind;
            this.label = label;
            this.start = start;
        }
    }
}
