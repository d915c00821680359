package io.linerate.afpacket.internal;

import io.linerate.jni.NativeLibrary;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;

/**
 * The JNI functions of {@code src/main/c/afpacket.c}. Every function takes primitives and
 * direct-buffer addresses and returns a non-negative result or {@code -errno}
 * ({@link io.linerate.jni.Errno}). Load the library with {@code LIBRARY.ensureLoaded()} before the
 * first call.
 */
public final class Native {
    /** {@code liblinerate-afpacket.so}, packed in this module's jar. */
    public static final NativeLibrary LIBRARY =
            NativeLibrary.of("linerate-afpacket", "AF_PACKET exists only on Linux", MethodHandles.lookup());

    private Native() {}

    /** Opens and closes an AF_PACKET socket: 0 or -errno (EPERM without CAP_NET_RAW). */
    public static native int probe();

    /** @return the address of a direct buffer */
    public static native long address(ByteBuffer directBuffer);

    /**
     * Writes the sizes and offsets listed by {@link Layout} as 32-bit ints at {@code out}.
     *
     * @return how many were written, or -ENOSPC if {@code capacity} ints do not suffice
     */
    public static native int layout(long out, int capacity);

    /** One SIOCETHTOOL ioctl on the NUL-terminated interface name at {@code ifname}; 0 or -errno. */
    public static native int ethtool(long ifname, long data);

    /**
     * One SIOCSHWTSTAMP ({@code set} != 0) or SIOCGHWTSTAMP ioctl with a {@code struct hwtstamp_config}
     * at {@code config}; 0 or -errno.
     */
    public static native int hwtstamp(long ifname, long config, int set);

    /** @return the interface index of the name at {@code ifname}, or -errno (-ENODEV when unknown) */
    public static native int ifindex(long ifname);

    /** @return a sending AF_PACKET socket bound to {@code ifindex}, or -errno */
    public static native int openTx(int ifindex, int qdiscBypass, int sndbuf);

    /**
     * @return a sending AF_PACKET socket with a TPACKET_V2 TX ring and PACKET_QDISC_BYPASS, or
     *     -errno; the ring's address, length and slot count are written as three u64 at {@code out}
     */
    public static native int openTxRing(int ifindex, int slotSize, int frameCount, int blockSize, long out);

    /** send(fd, NULL, 0, MSG_DONTWAIT): transmits the TX ring's requested slots; bytes sent or -errno. */
    public static native int flushTx(int fd);

    /** @return the most frames one {@link #send} takes, as the native library was built (MAX_BATCH) */
    public static native int maxBatch();

    /**
     * @param count frames the plan is for, 1..{@link #maxBatch()}
     * @return bytes a send plan for {@code count} frames takes, or -EINVAL
     */
    public static native long sendPlanSize(int count);

    /**
     * Prepares a send plan once, for every later {@link #send}: the link-layer address and one
     * message header and iovec per frame, in the {@link #sendPlanSize} bytes at {@code plan}
     * (8-byte aligned). The plan points at itself and at the frames: neither may move or be freed
     * while it is used.
     *
     * @param frames {@code count} frames of {@code frameSize} bytes back to back; the first one's
     *     destination MAC is the plan's
     * @return 0, or -EINVAL for a count, size or alignment out of range
     */
    public static native int prepareSend(long plan, int ifindex, int ethertype, long frames, int frameSize, int count);

    /** sendmmsg of the first {@code count} frames of a prepared plan, without waiting: frames accepted, or -errno. */
    public static native int send(int fd, long plan, int count);

    /**
     * @return a receiving AF_PACKET socket with a TPACKET_V3 ring, or -errno; the ring's address
     *     and length are written as two u64 at {@code out}
     */
    public static native int openRx(int ifindex, int ethertype, int blockSize, int blockCount, int frameSize,
                                    int retireMs, int hwStamps, long out);

    /** poll(2) over {@code n} {@code struct pollfd} at {@code fds}: ready count, 0 on timeout, or -errno. */
    public static native int poll(long fds, int n, int timeoutMs);

    /** PACKET_STATISTICS into three u32 at {@code out} (packets, drops, freeze count); 0 or -errno. */
    public static native int packetStats(int fd, long out);

    /** @return SO_ERROR as a positive errno, 0 if none, or -errno */
    public static native int socketError(int fd);

    /** close(2): 0 or -errno. */
    public static native int close(int fd);

    /** munmap(2): 0 or -errno. */
    public static native int unmap(long addr, long len);
}
