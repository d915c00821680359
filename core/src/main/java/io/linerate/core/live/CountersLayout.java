package io.linerate.core.live;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.status.CountersReader;

/**
 * The layout of a counters file, for readers in any language. All integers are in the byte order
 * of the host that wrote the file ({@link ByteOrder#nativeOrder()}, little-endian on x86-64 and
 * aarch64); times are ms since the epoch.
 *
 * <pre>
 * offset  size  field
 *      0     8  magic, the ASCII bytes "LINERATE"
 *      8     4  layout version ({@value #VERSION}); written last, so 0 means "not ready"
 *     12     4  metadata buffer length, bytes
 *     16     4  values buffer length, bytes
 *     20     4  reserved, 0
 *     24     8  pid of the owning process
 *     32     8  start time of the owning process (-1 when unknown), to tell a reused pid
 *     40     8  time the file was created
 *     48     8  heartbeat: the last time the owner published a value
 *     56    72  reserved, 0
 *    128     M  Agrona CountersManager metadata buffer ({@value #METADATA_LENGTH} bytes)
 *  128+M     V  Agrona CountersManager values buffer ({@value #VALUES_LENGTH} bytes)
 * </pre>
 *
 * <p>Each counter's metadata record (Agrona's layout: state, type id, key, label) carries the
 * {@link CounterType} id as its type id and a key of {@value #KEY_LENGTH} bytes: the group id
 * (long, offset 0; one group per transfer or progress report, numbered from 1 within the process),
 * the group's start time (long, offset 8) and the group's {@link CounterGroup.Kind} ordinal (int,
 * offset 16). The label is the group's label, the same on every counter of the group.
 */
public final class CountersLayout {
    /** The file's first eight bytes. */
    public static final byte[] MAGIC = "LINERATE".getBytes(StandardCharsets.US_ASCII);
    /** Layout version this code writes and reads. */
    public static final int VERSION = 1;
    /** Offset of the version field, an int. */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the metadata buffer length, an int. */
    public static final int METADATA_LENGTH_OFFSET = 12;
    /** Offset of the values buffer length, an int. */
    public static final int VALUES_LENGTH_OFFSET = 16;
    /** Offset of the owner's pid, a long. */
    public static final int PID_OFFSET = 24;
    /** Offset of the owner's start time, a long (ms since the epoch, -1 unknown). */
    public static final int PROCESS_START_OFFSET = 32;
    /** Offset of the file's creation time, a long (ms since the epoch). */
    public static final int CREATED_OFFSET = 40;
    /** Offset of the heartbeat, a long (ms since the epoch). */
    public static final int HEARTBEAT_OFFSET = 48;
    /** Length of the header; the metadata buffer follows it. Two cache lines. */
    public static final int HEADER_LENGTH = 128;
    /** Counters one file holds. */
    public static final int COUNTER_CAPACITY = 256;
    /** Length of the values buffer: {@value #COUNTER_CAPACITY} counters of 128 bytes each. */
    public static final int VALUES_LENGTH = COUNTER_CAPACITY * CountersReader.COUNTER_LENGTH;
    /** Length of the metadata buffer: {@value #COUNTER_CAPACITY} records of 512 bytes each. */
    public static final int METADATA_LENGTH = COUNTER_CAPACITY * CountersReader.METADATA_LENGTH;
    /** Length of a whole file, bytes. */
    public static final int FILE_LENGTH = HEADER_LENGTH + METADATA_LENGTH + VALUES_LENGTH;
    /** Offset of the group id in a counter's key, a long. */
    public static final int KEY_GROUP_ID_OFFSET = 0;
    /** Offset of the group's start time in a counter's key, a long (ms since the epoch). */
    public static final int KEY_GROUP_START_OFFSET = 8;
    /** Offset of the group's kind in a counter's key, an int ({@link CounterGroup.Kind} ordinal). */
    public static final int KEY_GROUP_KIND_OFFSET = 16;
    /** Length of a counter's key. */
    public static final int KEY_LENGTH = 20;
    /** File name prefix; the pid and {@value #SUFFIX} follow. */
    public static final String PREFIX = "linerate-";
    /** File name suffix. */
    public static final String SUFFIX = ".counters";

    private CountersLayout() {}

    /**
     * @param pid a process id
     * @return the file name of the process with this pid: {@code linerate-<pid>.counters}
     */
    public static String fileName(long pid) {
        return PREFIX + pid + SUFFIX;
    }

    /**
     * @param fileName a file name
     * @return the pid in a counters file name, or -1 when the name is not {@code linerate-<pid>.counters}
     */
    public static long pidOf(String fileName) {
        if (!fileName.startsWith(PREFIX) || !fileName.endsWith(SUFFIX)) {
            return -1;
        }
        String digits = fileName.substring(PREFIX.length(), fileName.length() - SUFFIX.length());
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Long.parseLong(digits);
    }
}
