package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.jni.Errno;
import io.linerate.afpacket.internal.Layout;
import io.linerate.afpacket.internal.Native;
import io.linerate.afpacket.internal.RxRing;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The receiving thread's loop: one TPACKET_V3 ring per stream, every ready block drained, each
 * frame's linerate header read through {@link DatagramHeader} and accounted in the phase it was
 * sent in. When no block is ready it sleeps in a bounded poll(2), or turns its Agrona
 * {@link IdleStrategy} ({@link io.linerate.core.Idle}) and looks for ring errors with a poll that does not wait
 * every {@value IdleStrategies#POLL_MILLIS} ms. It ends when it is asked to stop, once the
 * sender has finished and every frame sent arrived or the drain deadline passed, or, in a run
 * without a sender, when its listening time is over. Nothing in the
 * loop allocates or logs. {@link #close()} unmaps the rings and closes their sockets.
 */
final class FrameReceiver implements Runnable, AutoCloseable {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int POLLIN = 0x1;
    private static final int POLLERR = 0x8;
    private static final int POLLHUP = 0x10;
    private static final int POLLNVAL = 0x20;
    private static final int POLL_MS = IdleStrategies.POLL_MILLIS;
    private static final long CHECK_NANOS = POLL_MS * 1_000_000L;

    private final String interfaceName;
    private final Clock clock;
    private final RxStream[] streams;
    /** How to wait for a block; null to sleep in poll(2). */
    private final IdleStrategy idle;
    private final long ringFrames;
    private final long blockFrames;
    private final long ringBytes;
    private final ByteBuffer pollfds;
    private final long pollAddress;
    private StampBuckets stamps;
    private long tsHardware;
    private long tsSoftware;
    private long tsNone;
    private volatile boolean stop;
    private volatile long[] sentFinal;
    private volatile long drainDeadline = Long.MAX_VALUE;
    private long windowFirstStamp = Long.MAX_VALUE;
    private long windowLastStamp = Long.MIN_VALUE;
    private volatile Throwable error;
    private long cpuNanos;

    private FrameReceiver(String interfaceName, Clock clock, RxStream[] streams, IdleStrategy idle, long ringFrames,
                          long blockFrames, long ringBytes) {
        this.interfaceName = interfaceName;
        this.ringFrames = ringFrames;
        this.blockFrames = blockFrames;
        this.ringBytes = ringBytes;
        this.clock = clock;
        this.streams = streams;
        this.idle = idle;
        this.pollfds = ByteBuffer.allocateDirect(Layout.POLLFD_SIZE * streams.length).order(ByteOrder.nativeOrder());
        for (int i = 0; i < streams.length; i++) {
            pollfds.putInt(i * Layout.POLLFD_SIZE, streams[i].ring.fd());
            pollfds.putShort(i * Layout.POLLFD_SIZE + 4, (short) POLLIN);
        }
        this.pollAddress = Native.address(pollfds);
    }

    /**
     * Opens one ring per ethertype of {@code spec} on the RX interface. Its slots hold frames of
     * the spec's size, or in a run without a sender any frame the interface carries.
     *
     * @throws AfPacketException if a ring cannot be set up; the rings opened before it are closed
     */
    static FrameReceiver open(RawTransferSpec spec, RawTransfer.Interface rx, boolean hwStamps, Clock clock)
            throws AfPacketException {
        int frameSize = spec.sends() ? spec.frameSize() : Math.max(spec.frameSize(), rx.maxFrame());
        int slot = 2048;
        while (slot < frameSize + 256) {
            slot <<= 1;
        }
        int n = spec.etherTypes().size();
        int blockSize = Math.max(1 << 20, slot * 4);
        // 64 MiB per stream, 256 MiB at most in all: about 0.1 s of 1014-byte frames at 600 000 frames/s,
        // so a receiving thread that is briefly descheduled does not make the ring drop.
        int blockCount = (int) Math.max(8, Math.min(64, (256L << 20) / blockSize / n));
        int retire = (int) spec.retireTimeout().toMillis();
        RxStream[] streams = new RxStream[n];
        PublishedCounters published = new PublishedCounters(n * RxStream.PUBLISHED_PER_STREAM);
        try {
            for (int i = 0; i < n; i++) {
                int etherType = spec.etherTypes().get(i);
                streams[i] = new RxStream(i, etherType,
                        RxRing.open(rx.name(), rx.index(), etherType, blockSize, blockCount, slot, retire, hwStamps), published);
            }
        } catch (AfPacketException | RuntimeException e) {
            List<AutoCloseable> opened = new ArrayList<>();
            for (RxStream s : streams) {
                if (s != null) {
                    opened.add(s.ring);
                }
            }
            CloseHelper.quietCloseAll(opened);
            throw e;
        }
        return new FrameReceiver(rx.name(), clock, streams, IdleStrategies.receiver(spec.idle()),
                ringFrames(blockSize, blockCount, spec.frameSize()), ringFrames(blockSize, 1, spec.frameSize()),
                (long) blockSize * blockCount);
    }

    /**
     * Frames of {@code frameSize} bytes one TPACKET_V3 ring surely holds: per block, after the
     * block descriptor (48 bytes; 64 here), each frame takes its bytes after the frame header
     * and address (the MAC header starts at offset 82 for TPACKET3_HDRLEN 68 and a 14-byte MAC
     * header, af_packet.c; 96 here), rounded up to 16 bytes (the kernel rounds to 8). Rounding
     * up everywhere keeps this below the kernel's count.
     *
     * @return frames per block × blocks, a lower bound of the ring's capacity
     */
    static long ringFrames(int blockSize, int blockCount, int frameSize) {
        int perFrame = (96 + frameSize + 15) & ~15;
        return (long) ((blockSize - 64) / perFrame) * blockCount;
    }

    /** @return frames of the run's size each stream's ring surely holds; see {@link #ringFrames(int, int, int)} */
    long ringFrames() {
        return ringFrames;
    }

    /** @return frames of the run's size one block of a ring surely holds */
    long blockFrames() {
        return blockFrames;
    }

    /** @return bytes of each stream's ring (blocks × block size) */
    long ringBytes() {
        return ringBytes;
    }

    RxStream[] streams() {
        return streams;
    }

    /** Sets up the RX-stamp buckets for a run of {@code spanNanos} at most; before the thread starts. */
    void prepare(long intervalNanos, long spanNanos) {
        stamps = new StampBuckets(intervalNanos, spanNanos);
    }

    /** Asks the loop to stop at its next turn, whatever is still in flight. */
    void requestStop() {
        stop = true;
    }

    /** Makes the loop end at {@code deadline} (a run without a sender); before the thread starts. */
    void listenUntil(long deadline) {
        drainDeadline = deadline;
        sentFinal = new long[0];
    }

    /**
     * Tells the loop that the sender has finished: it stops once every frame sent arrived, or at
     * {@code deadline} at the latest.
     *
     * @param sent frames sent per stream, all phases
     */
    void senderFinished(long[] sent, long deadline) {
        drainDeadline = deadline;
        sentFinal = sent;
    }

    /** @return what ended the loop early, or null; any thread */
    Throwable error() {
        return error;
    }

    @Override
    public void run() {
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long nextCheck = clock.nanoTime() + CHECK_NANOS;
        try {
            while (!stop) {
                boolean any = false;
                for (int i = 0; i < streams.length; i++) {
                    RxStream s = streams[i];
                    RxRing r = s.ring;
                    boolean got = false;
                    while (r.blockReady()) {
                        readBlock(s, r);
                        r.releaseBlock();
                        got = true;
                    }
                    if (got) {
                        s.publish();
                        any = true;
                    }
                }
                long[] sent = sentFinal;
                if (sent != null && (allArrived(sent) || clock.nanoTime() >= drainDeadline)) {
                    break;
                }
                if (any) {
                    if (idle != null) {
                        idle.reset();
                    }
                } else if (idle == null) {
                    if (!pollOnce(POLL_MS)) {
                        break;
                    }
                } else {
                    idle.idle();
                    long now = clock.nanoTime();
                    if (now >= nextCheck) {
                        nextCheck = now + CHECK_NANOS;
                        if (!pollOnce(0)) {
                            break;
                        }
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            error = e;
        } finally {
            cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu0;
        }
    }

    /** Waits in poll(2) for a ready block, at most {@code timeoutMs}; false when a ring failed. */
    private boolean pollOnce(int timeoutMs) {
        int rc = Native.poll(pollAddress, streams.length, timeoutMs);
        if (rc < 0) {
            error = new AfPacketException(interfaceName, "poll", -rc);
            return false;
        }
        return rc == 0 || !failed();
    }

    private boolean failed() {
        for (int i = 0; i < streams.length; i++) {
            int rev = pollfds.getShort(i * Layout.POLLFD_SIZE + 6);
            if ((rev & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
                int err = streams[i].ring.pendingError();
                error = new AfPacketException(interfaceName, "poll (AF_PACKET RX ring)", err == 0 ? Errno.EIO : err,
                        err == Errno.ENETDOWN ? "the interface went down during the run" : "", false);
                return true;
            }
        }
        return false;
    }

    private boolean allArrived(long[] sent) {
        if (sent.length == 0) {
            return false; // no sender: listen until the deadline
        }
        for (int i = 0; i < streams.length; i++) {
            if (streams[i].distinct() < sent[i]) {
                return false;
            }
        }
        return true;
    }

    /** Reads one block: no allocation, no logging. */
    private void readBlock(RxStream s, RxRing r) {
        UnsafeBuffer h = r.buffer();
        int block = r.blockOffset();
        int n = h.getInt(block + Layout.BLOCK_NUM_PKTS);
        int off = block + h.getInt(block + Layout.BLOCK_FIRST_PKT);
        for (int p = 0; p < n; p++) {
            int snap = h.getInt(off + Layout.PKT_SNAPLEN);
            long len = Integer.toUnsignedLong(h.getInt(off + Layout.PKT_LEN));
            int payload = off + (h.getShort(off + Layout.PKT_MAC) & 0xffff) + TxStream.ETH_HLEN;
            if (DatagramHeader.matches(h, payload, snap - TxStream.ETH_HLEN, s.id)) {
                int phase = DatagramHeader.phase(h, payload);
                s.frame(DatagramHeader.sequence(h, payload), phase, len);
                long stamp = Integer.toUnsignedLong(h.getInt(off + Layout.PKT_SEC)) * 1_000_000_000L
                        + Integer.toUnsignedLong(h.getInt(off + Layout.PKT_NSEC));
                stamps.add(stamp);
                if (phase == DatagramHeader.WINDOW) {
                    windowFirstStamp = Math.min(windowFirstStamp, stamp);
                    windowLastStamp = Math.max(windowLastStamp, stamp);
                    int status = h.getInt(off + Layout.PKT_STATUS);
                    if ((status & RxRing.TP_STATUS_TS_RAW_HARDWARE) != 0) {
                        tsHardware++;
                    } else if ((status & RxRing.TP_STATUS_TS_SOFTWARE) != 0) {
                        tsSoftware++;
                    } else {
                        tsNone++;
                    }
                }
            } else {
                s.foreign++;
            }
            off += h.getInt(off + Layout.PKT_NEXT_OFFSET);
        }
    }

    /** @return which RX stamps the window's frames carried; only after the thread ended */
    Timestamping timestamping() {
        if (tsHardware + tsSoftware + tsNone == 0) {
            return Timestamping.NONE;
        }
        if (tsSoftware == 0 && tsNone == 0) {
            return Timestamping.HARDWARE;
        }
        if (tsHardware == 0 && tsNone == 0) {
            return Timestamping.SOFTWARE;
        }
        return tsHardware == 0 && tsSoftware == 0 ? Timestamping.NONE : Timestamping.MIXED;
    }

    /**
     * The length over which the window's frames arrived, for a run without a sender: the span of
     * their RX stamps extended by one mean gap between them ({@code span × n / (n − 1)} for
     * {@code n} frames), so that frames over it is their arrival rate. Only after the thread ended.
     *
     * @return ns; 0 with fewer than 2 window frames
     */
    long windowArrivalNanos() {
        long n = 0;
        for (RxStream s : streams) {
            n += s.distinctByPhase[DatagramHeader.WINDOW];
        }
        if (n < 2 || windowLastStamp <= windowFirstStamp) {
            return 0;
        }
        return Math.round((windowLastStamp - windowFirstStamp) * (double) n / (n - 1));
    }

    /** @return the RX-stamp buckets; only after the thread ended */
    StampBuckets stamps() {
        return stamps;
    }

    /** @return CPU time of the receiving thread, ns; only after the thread ended */
    long cpuNanos() {
        return cpuNanos;
    }

    /**
     * Adds every ring's PACKET_STATISTICS (reset by the kernel on each read) to its stream's
     * totals; the monitoring thread only.
     *
     * @throws AfPacketException naming the first ring whose statistics could not be read; the
     *     others are still read
     */
    void accumulateStatistics() throws AfPacketException {
        AfPacketException first = null;
        for (RxStream s : streams) {
            try {
                s.ring.accumulateStatistics(s.kernel);
            } catch (AfPacketException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Unmaps every ring and closes its socket; idempotent, never throws. */
    @Override
    public void close() {
        List<AutoCloseable> rings = new ArrayList<>(streams.length);
        for (RxStream s : streams) {
            rings.add(s.ring);
        }
        CloseHelper.quietCloseAll(rings);
    }
}
