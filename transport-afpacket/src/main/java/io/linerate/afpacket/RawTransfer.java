package io.linerate.afpacket;

import io.linerate.afpacket.internal.Errno;
import io.linerate.afpacket.internal.Layout;
import io.linerate.afpacket.internal.Native;
import io.linerate.afpacket.internal.RxRing;
import io.linerate.afpacket.internal.Sysfs;
import io.linerate.afpacket.internal.TxRing;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.Pacer;
import io.linerate.core.PacingWait;
import io.linerate.core.Rates;
import io.linerate.core.SequenceTracker;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * Raw Ethernet frames from one interface to another through AF_PACKET: the two ends of a cable,
 * or of a veth pair. The sender uses sendmmsg in batches on a socket with PACKET_QDISC_BYPASS; the
 * receiver reads one TPACKET_V3 ring per ethertype, with a block retire timeout so every wait is
 * bounded. Per-frame RX stamps are software stamps (SO_TIMESTAMPING), or hardware ones when the
 * RX interface accepts SIOCSHWTSTAMP with HWTSTAMP_FILTER_ALL (its previous setting is restored).
 *
 * <p>Lifecycle of {@link #run}: validate the interfaces, install Flow Director rules if asked,
 * open the RX rings and the TX socket, take the interface counter baselines (one place, before the
 * first frame), send for warm-up + duration, let the receiver drain frames still in flight (bounded
 * by the drain timeout), take the final counter readings, and release every rule, ring and socket,
 * on every path.
 */
public final class RawTransfer {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Ethernet header bytes before the payload. */
    private static final int ETH_HLEN = 14;
    private static final int POLLERR = 0x8;
    private static final int POLLHUP = 0x10;
    private static final int POLLNVAL = 0x20;
    private static final int HWTSTAMP_FILTER_NONE = 0;
    private static final int HWTSTAMP_FILTER_ALL = 1;
    private static final int POLL_MS = 20;
    /** Wait before a further reading of interface counters that dipped (a glitch may last a little while). */
    private static final Duration COUNTER_SETTLE_PAUSE = Duration.ofMillis(10);

    private RawTransfer() {}

    /** Runs {@code spec} on the system clock without interval callbacks; see {@link #run(RawTransferSpec, Clock, Consumer)}. */
    public static RawResult run(RawTransferSpec spec) throws TransferException {
        return run(spec, Clock.system(), i -> { });
    }

    /**
     * Runs one raw transfer.
     *
     * @param spec what to send
     * @param clock time source of every reading
     * @param intervals receives one sample per interval, from the calling thread
     * @return what both ends counted; an interface that failed mid-run gives a result with
     *     {@code error} set, {@code valid=false} and the counts up to the failure
     * @throws TransferException if the run cannot start: AF_PACKET unavailable, an unknown or down
     *     interface, an MTU below the frame size, no permission, steering refused (all usage errors
     *     except the first), or a socket that cannot be set up; nothing stays open or installed
     */
    public static RawResult run(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals) throws TransferException {
        return run(spec, clock, intervals, null);
    }

    /**
     * Runs one raw transfer with Flow Director requests going through {@code ethtool} instead of
     * the kernel's SIOCETHTOOL (a software rule table in tests); otherwise as
     * {@link #run(RawTransferSpec, Clock, Consumer)}.
     *
     * @param ethtool where steering requests go; null for the kernel
     */
    public static RawResult run(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals, EthtoolIoctl ethtool)
            throws TransferException {
        Optional<String> why = AfPacket.unavailabilityCause();
        if (why.isPresent()) {
            throw new TransferException("AF_PACKET is not available: " + why.get(), null, why.get().contains("CAP_NET_RAW"));
        }
        int txIndex = checkInterface(spec.txInterface(), spec.frameSize());
        int rxIndex = checkInterface(spec.rxInterface(), spec.frameSize());
        byte[] dst = spec.destinationMac().orElseGet(() -> macOf(spec.rxInterface()));
        byte[] src = spec.sourceMac().orElseGet(() -> macOf(spec.txInterface()));
        Run run = new Run(spec, clock, intervals, txIndex, rxIndex, dst, src);
        run.ethtool = ethtool;
        return run.execute();
    }

    private static byte[] macOf(String ifname) {
        try {
            return Sysfs.address(ifname).orElse(new byte[] {2, 0, 0, 0, 0, 1});
        } catch (IOException e) {
            return new byte[] {2, 0, 0, 0, 0, 1};
        }
    }

    private static int checkInterface(String ifname, int frameSize) throws TransferException {
        ByteBuffer name = EthtoolIoctl.cString(ifname);
        int idx = Native.ifindex(Native.address(name));
        if (idx < 0 || !Sysfs.exists(ifname)) {
            throw new TransferException("interface " + ifname + " does not exist; name an existing interface", null, true);
        }
        try {
            if ((Sysfs.flags(ifname) & Sysfs.IFF_UP) == 0) {
                throw new TransferException("interface " + ifname + " is down; bring it up first", null, true);
            }
            int mtu = Sysfs.mtu(ifname);
            if (frameSize > mtu + ETH_HLEN) {
                throw new TransferException("frame size " + frameSize + " bytes does not fit interface " + ifname
                        + " with MTU " + mtu + "; allowed: " + RawTransferSpec.MIN_FRAME + ".." + (mtu + ETH_HLEN), null, true);
            }
        } catch (IOException e) {
            throw new TransferException("cannot read the state of interface " + ifname + ": " + e.getMessage(), e, true);
        }
        return idx;
    }

    /** Per-stream state shared by the sender, the receiver and the reporting thread. */
    private static final class Stream {
        final int id;
        final int etherType;
        // sender side
        ByteBuffer frames;
        long framesAddress;
        ByteBuffer[] payloads;
        long nextSeq;
        long txMeasured;
        long txTotal;
        volatile long txPublished;
        volatile long txFinal = -1;
        // receiver side
        RxRing ring;
        final SequenceTracker measured = new SequenceTracker();
        final SequenceTracker warm = new SequenceTracker();
        long rxMeasuredBytes;
        long rxTotal;
        long rxTotalBytes;
        long foreign;
        volatile long rxPublished;
        final long[] kernel = new long[2];
        long queue = -1;

        Stream(int id, int etherType) {
            this.id = id;
            this.etherType = etherType;
        }
    }

    private static final class Run {
        final RawTransferSpec spec;
        final Clock clock;
        final Consumer<RawInterval> intervals;
        final int txIndex;
        final int rxIndex;
        final byte[] dst;
        final byte[] src;
        final Stream[] streams;
        final int frameSize;
        long t0;
        long measureStart;
        long end;
        // sender results
        volatile long firstMeasuredNanos = Long.MIN_VALUE;
        volatile long lastSendNanos;
        volatile long txRetries;
        volatile long txRefused;
        TxRing txRing;
        ByteBuffer[] ringPayloads;
        volatile long senderCpu;
        volatile Throwable txError;
        // receiver results
        volatile boolean senderDone;
        volatile long drainDeadline = Long.MAX_VALUE;
        volatile boolean stop;
        volatile long receiverCpu;
        volatile Throwable rxError;
        long tsHardware;
        long tsSoftware;
        long tsNone;
        /** Frames per RX-stamp bucket of one interval; allocated before traffic, so frames allocate nothing. */
        long[] stampBuckets;
        long stampOrigin = Long.MIN_VALUE;
        long stampLast = Long.MIN_VALUE;
        long stampOutside;
        int txFd = -1;
        EthtoolIoctl ethtool;
        long intervalNanos;
        Thread txThread;
        Thread rxThread;

        Run(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals, int txIndex, int rxIndex, byte[] dst, byte[] src) {
            this.spec = spec;
            this.clock = clock;
            this.intervals = intervals;
            this.txIndex = txIndex;
            this.rxIndex = rxIndex;
            this.dst = dst;
            this.src = src;
            this.frameSize = spec.frameSize();
            this.streams = new Stream[spec.etherTypes().size()];
            for (int i = 0; i < streams.length; i++) {
                streams[i] = new Stream(i, spec.etherTypes().get(i));
            }
        }

        RawResult execute() throws TransferException {
            FlowSteering steering = null;
            boolean steered = false;
            String steeringNote = "not requested";
            List<FlowSteering.Installed> rules = List.of();
            HwStamps hw = null;
            List<Throwable> cleanupErrors = new ArrayList<>();
            Throwable primary = null;
            try {
                if (spec.steer()) {
                    try {
                        Ethtool et = new Ethtool(spec.rxInterface(), ethtool != null ? ethtool : EthtoolIoctl.system());
                        long rings = et.rxRings();
                        List<FlowSteering.Request> req = new ArrayList<>();
                        for (Stream s : streams) {
                            req.add(FlowSteering.Request.of(s.etherType, s.id % rings));
                        }
                        steering = FlowSteering.install(et, req);
                        rules = steering.installed();
                        for (int i = 0; i < streams.length; i++) {
                            streams[i].queue = rules.get(i).queue();
                        }
                        steered = true;
                        steeringNote = rules.size() + " rules installed on " + spec.rxInterface();
                    } catch (SteeringUnsupportedException e) {
                        if (!spec.allowUnsteered()) {
                            throw e;
                        }
                        steeringNote = "not steered: " + e.getMessage();
                    }
                }
                if (spec.hardwareTimestamps()) {
                    hw = HwStamps.enable(spec.rxInterface());
                }
                openRings(hw != null && hw.enabled);
                openTx();
                prepareFrames();
                NicCounters txNic = NicCounters.of(spec.txInterface(), clock);
                NicCounters rxNic = NicCounters.of(spec.rxInterface(), clock);
                NicCounters.Snapshot txBase;
                NicCounters.Snapshot rxBase;
                try {
                    // All baselines in one place, before the first frame. Each is a second reading,
                    // settled, so that neither a low first reading nor a dip in the baseline itself
                    // is taken for motion of the run.
                    txNic.read();
                    rxNic.read();
                    txBase = txNic.readSettled(COUNTER_SETTLE_PAUSE);
                    rxBase = rxNic.readSettled(COUNTER_SETTLE_PAUSE);
                } catch (IOException e) {
                    throw new TransferException("cannot read interface counters: " + e.getMessage(), e, true);
                }
                traffic();
                Optional<NicCounters.Delta> txDelta = Optional.empty();
                Optional<NicCounters.Delta> rxDelta = Optional.empty();
                try {
                    // a dip in the final reading is decided by the readings readSettled takes after it
                    txDelta = Optional.of(txNic.readSettled(COUNTER_SETTLE_PAUSE).minus(txBase));
                } catch (IOException e) {
                    noteError(e);
                }
                try {
                    rxDelta = Optional.of(rxNic.readSettled(COUNTER_SETTLE_PAUSE).minus(rxBase));
                } catch (IOException e) {
                    noteError(e);
                }
                for (Stream s : streams) {
                    try {
                        s.ring.accumulateStatistics(s.kernel);
                    } catch (AfPacketException e) {
                        noteError(e);
                    }
                }
                return result(steered, steeringNote, rules, txDelta, rxDelta);
            } catch (TransferException | RuntimeException | Error e) {
                primary = e;
                throw e;
            } finally {
                // A thread that did not end (it cannot, short of a kernel that never answers poll)
                // keeps its memory mapped: leaking it beats unmapping under a running reader.
                if (rxThread == null || !rxThread.isAlive()) {
                    for (Stream s : streams) {
                        if (s.ring != null) {
                            s.ring.close();
                        }
                    }
                }
                if (txThread == null || !txThread.isAlive()) {
                    if (txFd >= 0) {
                        Native.close(txFd);
                    }
                    if (txRing != null) {
                        txRing.close();
                    }
                }
                if (steering != null) {
                    try {
                        steering.close();
                    } catch (AfPacketException e) {
                        cleanupErrors.add(e);
                    }
                }
                if (hw != null) {
                    hw.restore();
                }
                if (!cleanupErrors.isEmpty()) {
                    if (primary != null) {
                        primary.addSuppressed(cleanupErrors.get(0));
                    } else {
                        throw new TransferException("could not remove flow steering rules: " + cleanupErrors.get(0).getMessage(),
                                cleanupErrors.get(0));
                    }
                }
            }
        }

        private void noteError(Exception e) {
            if (rxError == null && txError == null) {
                rxError = e;
            }
        }

        private void openRings(boolean hwStamps) throws AfPacketException {
            int slot = 2048;
            while (slot < frameSize + 256) {
                slot <<= 1;
            }
            int blockSize = Math.max(1 << 20, slot * 4);
            // 64 MiB per stream, 256 MiB at most in all: about 0.1 s of 1014-byte frames at 600 000 frames/s,
            // so a receiving thread that is briefly descheduled does not make the ring drop.
            int blockCount = (int) Math.max(8, Math.min(64, (256L << 20) / blockSize / streams.length));
            int retire = (int) spec.retireTimeout().toMillis();
            for (Stream s : streams) {
                s.ring = RxRing.open(spec.rxInterface(), rxIndex, s.etherType, blockSize, blockCount, slot, retire, hwStamps);
            }
        }

        private void openTx() throws AfPacketException {
            if (spec.txRing()) {
                txRing = TxRing.open(spec.txInterface(), txIndex, frameSize, Math.max(4096, 4 * spec.batch()));
                ByteBuffer f = txRing.frames();
                ringPayloads = new ByteBuffer[txRing.slots()];
                for (int i = 0; i < ringPayloads.length; i++) {
                    ringPayloads[i] = f.slice(txRing.dataOffsetOf(i) + ETH_HLEN, frameSize - ETH_HLEN);
                }
                return;
            }
            int fd = Native.openTx(txIndex, 1, 0);
            if (fd < 0) {
                throw new AfPacketException(spec.txInterface(), "AF_PACKET TX socket setup (PACKET_QDISC_BYPASS)", -fd, "",
                        -fd == Errno.EPERM);
            }
            txFd = fd;
        }

        private void prepareFrames() {
            int batch = spec.batch();
            for (Stream s : streams) {
                s.frames = ByteBuffer.allocateDirect(batch * frameSize);
                s.framesAddress = Native.address(s.frames);
                s.payloads = new ByteBuffer[batch];
                for (int i = 0; i < batch; i++) {
                    int off = i * frameSize;
                    s.frames.put(off, dst);
                    s.frames.put(off + 6, src);
                    s.frames.putShort(off + 12, (short) s.etherType);
                    s.payloads[i] = s.frames.slice(off + ETH_HLEN, frameSize - ETH_HLEN);
                }
            }
        }

        private void traffic() {
            long span = spec.warmup().toNanos() + spec.duration().toNanos() + spec.drainTimeout().toNanos();
            intervalNanos = spec.interval().toNanos();
            stampBuckets = new long[(int) Math.min(1_000_000, span / spec.interval().toNanos() + 2)];
            t0 = clock.nanoTime();
            measureStart = t0 + spec.warmup().toNanos();
            end = measureStart + spec.duration().toNanos();
            Thread rx = new Thread(this::receive, "linerate-afpacket-rx");
            Thread tx = new Thread(this::send, "linerate-afpacket-tx");
            rxThread = rx;
            txThread = tx;
            rx.setDaemon(true);
            tx.setDaemon(true);
            rx.start();
            tx.start();
            long interval = spec.interval().toNanos();
            long prevT = t0;
            long prevTx = 0;
            long prevRx = 0;
            long next = nextTick(t0, interval);
            boolean normal = false;
            try {
                while (tx.isAlive()) {
                    long waitMs = Math.max(1, (next - clock.nanoTime()) / 1_000_000);
                    try {
                        tx.join(Math.min(waitMs, 100));
                    } catch (InterruptedException e) {
                        stop = true;
                        Thread.currentThread().interrupt();
                    }
                    if (rxError != null) {
                        stop = true;
                    }
                    boolean done = !tx.isAlive();
                    long now = clock.nanoTime();
                    if (now >= next || done) {
                        long txs = 0;
                        long rxs = 0;
                        for (Stream s : streams) {
                            txs += s.txPublished;
                            rxs += s.rxPublished;
                        }
                        long t = clock.nanoTime();
                        if (t > prevT) {
                            report(prevT, t, txs - prevTx, rxs - prevRx);
                        }
                        for (Stream s : streams) {
                            try {
                                s.ring.accumulateStatistics(s.kernel);
                            } catch (AfPacketException e) {
                                noteError(e);
                            }
                        }
                        prevT = t;
                        prevTx = txs;
                        prevRx = rxs;
                        next = nextTick(now, interval);
                    }
                }
                normal = true;
            } finally {
                // Whatever happened above (a listener that threw included), both threads end here
                // before any ring or socket is released.
                if (!normal) {
                    stop = true;
                }
                joinBounded(tx, spec.drainTimeout().toMillis() + 2_000);
                if (tx.isAlive()) {
                    stop = true;
                    joinBounded(tx, 5_000);
                }
                drainDeadline = clock.nanoTime() + spec.drainTimeout().toNanos();
                senderDone = true;
                joinBounded(rx, spec.drainTimeout().toMillis() + 2_000);
                if (rx.isAlive()) {
                    stop = true;
                    joinBounded(rx, 5_000);
                }
            }
        }

        /**
         * The next interval boundary after {@code now}: intervals run from the start, the end of the
         * warm-up is a boundary, and the measured window's intervals run from there, so that no
         * interval straddles the warm-up and the window.
         */
        private long nextTick(long now, long interval) {
            if (now < measureStart) {
                return Math.min(t0 + ((now - t0) / interval + 1) * interval, measureStart);
            }
            return measureStart + ((now - measureStart) / interval + 1) * interval;
        }

        private static void joinBounded(Thread t, long millis) {
            try {
                t.join(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void report(long from, long to, long txFrames, long rxFrames) {
            long ns = to - from;
            long bits = spec.bitsPerFrame();
            intervals.accept(new RawInterval((from - t0) / 1e9, (to - t0) / 1e9, frameSize, txFrames, rxFrames,
                    Rates.perSecond(txFrames, ns), Rates.perSecond(rxFrames, ns),
                    Rates.bitsPerSecond(txFrames * (bits / 8), ns), Rates.bitsPerSecond(rxFrames * (bits / 8), ns),
                    from < measureStart));
        }

        /** The sending thread: batches of frames, round robin over the streams, paced from the start and anew from the window's start. */
        private void send() {
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            try {
                if (txRing != null) {
                    sendRing();
                    return;
                }
                Pacer pacer = new Pacer(spec.rateBitsPerSecond());
                pacer.start(t0);
                PacingWait pacingWait = new PacingWait(clock);
                boolean inWindow = false;
                int batch = spec.batch();
                long bytesSent = 0;
                long retries = 0;
                int k = 0;
                while (!stop) {
                    long now = clock.nanoTime();
                    if (now >= end) {
                        break;
                    }
                    if (!inWindow && now >= measureStart) {
                        inWindow = true;
                        pacer.anchor(measureStart, bytesSent);
                    }
                    if (waitForSchedule(pacer, pacingWait, bytesSent, now)) {
                        continue;
                    }
                    Stream s = streams[k];
                    for (int i = 0; i < batch; i++) {
                        DatagramHeader.write(s.payloads[i], s.id, s.nextSeq + i, now);
                    }
                    int rc = Native.send(txFd, txIndex, s.etherType, s.framesAddress, frameSize, batch);
                    if (rc > 0) {
                        s.nextSeq += rc;
                        s.txTotal += rc;
                        if (now >= measureStart) {
                            if (firstMeasuredNanos == Long.MIN_VALUE) {
                                firstMeasuredNanos = now;
                            }
                            s.txMeasured += rc;
                        }
                        lastSendNanos = clock.nanoTime();
                        s.txPublished = s.txTotal;
                        bytesSent += (long) rc * frameSize;
                        k = k + 1 == streams.length ? 0 : k + 1;
                    } else if (rc == -Errno.ENOBUFS || rc == -Errno.EAGAIN) {
                        retries++;
                        Thread.yield();
                    } else {
                        txError = new AfPacketException(spec.txInterface(), "sendmmsg", -rc,
                                -rc == Errno.ENETDOWN ? "the interface went down during the run" : "", false);
                        break;
                    }
                }
                txRetries = retries;
            } catch (RuntimeException | Error e) {
                txError = e;
            } finally {
                for (Stream s : streams) {
                    s.txFinal = s.txTotal;
                }
                senderCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            }
        }

        /**
         * Waits a step towards the pacer's next send time ({@link PacingWait}: parks until shortly
         * before it, never past the end of the run); a stall catches up by at most
         * {@link Pacer#MAX_CATCH_UP_NANOS} of traffic. The measured window has a schedule of its own
         * from {@code measureStart} (the sender anchors it on its first pass inside the window), so
         * the warm-up's debt is never caught up inside the window and the window's frames never
         * exceed its length at the target rate by more than one batch.
         *
         * @return whether the caller must read the clock and ask again
         */
        private boolean waitForSchedule(Pacer pacer, PacingWait pacingWait, long bytesSent, long now) {
            long wait = Math.min(pacer.nanosUntilNext(bytesSent, now), end - now);
            if (wait <= 0) {
                return false;
            }
            pacingWait.step(now, wait);
            return true;
        }

        /** The TX ring variant of the sender: a batch is written in place, then one send call. */
        private void sendRing() {
            Pacer pacer = new Pacer(spec.rateBitsPerSecond());
            pacer.start(t0);
            PacingWait pacingWait = new PacingWait(clock);
            boolean inWindow = false;
            int batch = spec.batch();
            long bytesSent = 0;
            long retries = 0;
            long refused = 0;
            int k = 0;
            ByteBuffer f = txRing.frames();
            try {
                while (!stop) {
                    long now = clock.nanoTime();
                    if (now >= end) {
                        break;
                    }
                    if (!inWindow && now >= measureStart) {
                        inWindow = true;
                        pacer.anchor(measureStart, bytesSent);
                    }
                    if (waitForSchedule(pacer, pacingWait, bytesSent, now)) {
                        continue;
                    }
                    Stream s = streams[k];
                    int queued = 0;
                    while (queued < batch) {
                        int d = txRing.dataOffset();
                        if (d < 0) {
                            break;
                        }
                        f.put(d, s.frames, 0, ETH_HLEN);
                        DatagramHeader.write(ringPayloads[txRing.currentSlot()], s.id, s.nextSeq + queued, now);
                        txRing.request(frameSize);
                        queued++;
                    }
                    if (queued > 0) {
                        s.nextSeq += queued;
                        s.txTotal += queued;
                        if (now >= measureStart) {
                            if (firstMeasuredNanos == Long.MIN_VALUE) {
                                firstMeasuredNanos = now;
                            }
                            s.txMeasured += queued;
                        }
                        bytesSent += (long) queued * frameSize;
                        k = k + 1 == streams.length ? 0 : k + 1;
                    } else {
                        retries++;
                    }
                    int rc = txRing.flush();
                    if (rc == -Errno.ENOBUFS || rc == -Errno.EAGAIN) {
                        refused++;
                        Thread.yield();
                    } else if (rc < 0) {
                        txError = new AfPacketException(spec.txInterface(), "send (PACKET_TX_RING)", -rc,
                                -rc == Errno.ENETDOWN ? "the interface went down during the run" : "", false);
                        break;
                    } else if (queued == 0) {
                        Thread.yield();
                    }
                    if (queued > 0) {
                        lastSendNanos = clock.nanoTime();
                        s.txPublished = s.txTotal;
                    }
                }
                // Frames still queued in the ring leave now, within the drain timeout.
                long deadline = clock.nanoTime() + spec.drainTimeout().toNanos();
                boolean drained = false;
                while (txError == null && txRing.pending() && clock.nanoTime() < deadline) {
                    drained = true;
                    int rc = txRing.flush();
                    if (rc < 0 && rc != -Errno.ENOBUFS && rc != -Errno.EAGAIN) {
                        txError = new AfPacketException(spec.txInterface(), "send (PACKET_TX_RING)", -rc);
                    }
                    Thread.yield();
                }
                if (drained && firstMeasuredNanos != Long.MIN_VALUE) {
                    lastSendNanos = clock.nanoTime();
                }
            } catch (AfPacketException e) {
                txError = e;
            } finally {
                txRetries = retries;
                txRefused = refused;
            }
        }

        /** The receiving thread: drains every ring's ready blocks, polls with a bound when none is ready. */
        private void receive() {
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            ByteBuffer pollfds = ByteBuffer.allocateDirect(Layout.POLLFD_SIZE * streams.length).order(ByteOrder.nativeOrder());
            for (int i = 0; i < streams.length; i++) {
                pollfds.putInt(i * Layout.POLLFD_SIZE, streams[i].ring.fd());
                pollfds.putShort(i * Layout.POLLFD_SIZE + 4, (short) 0x1); // POLLIN
            }
            long pollAddr = Native.address(pollfds);
            try {
                while (!stop) {
                    boolean any = false;
                    for (int i = 0; i < streams.length; i++) {
                        Stream s = streams[i];
                        RxRing r = s.ring;
                        boolean got = false;
                        while (r.blockReady()) {
                            readBlock(s, r);
                            r.releaseBlock();
                            got = true;
                        }
                        if (got) {
                            s.rxPublished = s.rxTotal;
                            any = true;
                        }
                    }
                    if (senderDone) {
                        if (allArrived() || clock.nanoTime() >= drainDeadline) {
                            break;
                        }
                    }
                    if (!any) {
                        int rc = Native.poll(pollAddr, streams.length, POLL_MS);
                        if (rc < 0) {
                            rxError = new AfPacketException(spec.rxInterface(), "poll", -rc);
                            break;
                        }
                        if (rc > 0 && failed(pollfds)) {
                            break;
                        }
                    }
                }
            } catch (RuntimeException | Error e) {
                rxError = e;
            } finally {
                receiverCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            }
        }

        private boolean failed(ByteBuffer pollfds) {
            for (int i = 0; i < streams.length; i++) {
                int rev = pollfds.getShort(i * Layout.POLLFD_SIZE + 6);
                if ((rev & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
                    int err = streams[i].ring.pendingError();
                    rxError = new AfPacketException(spec.rxInterface(), "poll (AF_PACKET RX ring)", err == 0 ? Errno.EIO : err,
                            err == Errno.ENETDOWN ? "the interface went down during the run" : "", false);
                    stop = true;
                    return true;
                }
            }
            return false;
        }

        private boolean allArrived() {
            for (Stream s : streams) {
                long sent = s.txFinal;
                if (sent < 0 || s.measured.distinct() + s.warm.distinct() < sent) {
                    return false;
                }
            }
            return true;
        }

        /** Reads one block: no allocation, no logging. */
        private void readBlock(Stream s, RxRing r) {
            ByteBuffer h = r.headers;
            ByteBuffer f = r.frames;
            int block = r.blockOffset();
            int n = h.getInt(block + Layout.BLOCK_NUM_PKTS);
            int off = block + h.getInt(block + Layout.BLOCK_FIRST_PKT);
            for (int p = 0; p < n; p++) {
                int snap = h.getInt(off + Layout.PKT_SNAPLEN);
                long len = Integer.toUnsignedLong(h.getInt(off + Layout.PKT_LEN));
                int status = h.getInt(off + Layout.PKT_STATUS);
                int mac = off + (h.getShort(off + Layout.PKT_MAC) & 0xffff);
                int payload = mac + ETH_HLEN;
                if (snap >= ETH_HLEN + DatagramHeader.BYTES && f.getInt(payload) == DatagramHeader.MAGIC
                        && f.getInt(payload + 4) == s.id) {
                    long seq = f.getLong(payload + 8);
                    long sent = f.getLong(payload + 16);
                    s.rxTotal++;
                    s.rxTotalBytes += len;
                    long stamp = Integer.toUnsignedLong(h.getInt(off + Layout.PKT_SEC)) * 1_000_000_000L
                            + Integer.toUnsignedLong(h.getInt(off + Layout.PKT_NSEC));
                    bucket(stamp);
                    if (sent >= measureStart) {
                        SequenceTracker.Arrival a = s.measured.onArrival(seq);
                        if (a == SequenceTracker.Arrival.IN_ORDER || a == SequenceTracker.Arrival.REORDERED) {
                            s.rxMeasuredBytes += len;
                        }
                        if ((status & RxRing.TP_STATUS_TS_RAW_HARDWARE) != 0) {
                            tsHardware++;
                        } else if ((status & RxRing.TP_STATUS_TS_SOFTWARE) != 0) {
                            tsSoftware++;
                        } else {
                            tsNone++;
                        }
                    } else {
                        s.warm.onArrival(seq);
                    }
                } else {
                    s.foreign++;
                }
                off += h.getInt(off + Layout.PKT_NEXT_OFFSET);
            }
        }

        /** Counts a frame into the bucket of its RX stamp (receiving thread). */
        private void bucket(long stamp) {
            if (stampOrigin == Long.MIN_VALUE) {
                stampOrigin = stamp;
            }
            long i = (stamp - stampOrigin) / intervalNanos;
            if (i < 0 || i >= stampBuckets.length) {
                stampOutside++; // a stepped wall clock, or a run longer than planned
                return;
            }
            stampBuckets[(int) i]++;
            if (stamp > stampLast) {
                stampLast = stamp;
            }
        }

        private List<StampInterval> stampIntervals(Timestamping ts) {
            List<StampInterval> out = new ArrayList<>();
            if (ts == Timestamping.NONE || stampOrigin == Long.MIN_VALUE) {
                return out;
            }
            long len = spec.interval().toNanos();
            long lastOffset = stampLast - stampOrigin;
            int last = (int) Math.min(stampBuckets.length - 1, lastOffset / len);
            for (int i = 0; i <= last; i++) {
                long from = i * len;
                long to = i == last ? lastOffset : from + len;
                long n = stampBuckets[i];
                out.add(new StampInterval(from / 1e9, to / 1e9, frameSize, n, Rates.perSecond(n, to - from),
                        Rates.bitsPerSecond(n * frameSize, to - from)));
            }
            return out;
        }

        private RawResult result(boolean steered, String steeringNote, List<FlowSteering.Installed> rules,
                                 Optional<NicCounters.Delta> txNic, Optional<NicCounters.Delta> rxNic) {
            // The measured window is [measureStart, end): a frame is in it when its batch left inside
            // it, and the rate is the window's frames over the window's length (a run cut short by an
            // error ends at its last send). The span from the first to the last send would leave
            // out the last batch's interval and overstate the rate by one batch.
            long windowEnd = txError == null && rxError == null ? end : Math.min(end, lastSendNanos);
            long measuredNanos = firstMeasuredNanos == Long.MIN_VALUE ? 0 : Math.max(0, windowEnd - measureStart);
            Timestamping ts = tsHardware + tsSoftware + tsNone == 0 ? Timestamping.NONE
                    : tsHardware > 0 && tsSoftware == 0 && tsNone == 0 ? Timestamping.HARDWARE
                    : tsSoftware > 0 && tsHardware == 0 && tsNone == 0 ? Timestamping.SOFTWARE
                    : tsNone > 0 && tsHardware == 0 && tsSoftware == 0 ? Timestamping.NONE : Timestamping.MIXED;
            List<RawStreamResult> out = new ArrayList<>();
            List<String> reasons = new ArrayList<>();
            Optional<String> error = Optional.empty();
            Throwable err = txError != null ? txError : rxError;
            if (err != null) {
                error = Optional.of(err.getMessage() == null ? err.toString() : err.getMessage());
                reasons.add("the run ended early: " + error.get());
            }
            if (txRefused > 0) {
                reasons.add("the kernel refused " + txRefused + " transmissions (ENOBUFS) from the TX ring; each dropped a frame");
            }
            for (int i = 0; i < streams.length; i++) {
                Stream s = streams[i];
                long rxFrames = s.measured.distinct();
                long lost = s.measured.lost(s.txMeasured);
                long warmLost = s.warm.lost(s.txTotal - s.txMeasured);
                OptionalDouble txFps = Rates.perSecond(s.txMeasured, measuredNanos);
                OptionalDouble txBps = Rates.bitsPerSecond(s.txMeasured * frameSize, measuredNanos);
                // the window's frames that arrived, over the same window; per-frame RX stamps form the
                // rate buckets of the intervals
                OptionalDouble rxFps = Rates.perSecond(rxFrames, measuredNanos);
                OptionalDouble rxBps = Rates.bitsPerSecond(s.rxMeasuredBytes, measuredNanos);
                String name = String.format(Locale.ROOT, "stream %d (ethertype 0x%04x)", s.id, s.etherType);
                if (s.txMeasured == 0 && err == null) {
                    reasons.add(name + ": no frame was sent in the measured window");
                }
                if (lost > 0) {
                    reasons.add(String.format(Locale.ROOT, "%s: lost %d of %d frames in the measured window", name, lost, s.txMeasured));
                }
                if (s.kernel[1] > 0) {
                    reasons.add(String.format(Locale.ROOT, "%s: the RX ring dropped %d frames (PACKET_STATISTICS)", name, s.kernel[1]));
                }
                out.add(new RawStreamResult(s.id, s.etherType, frameSize, s.txMeasured, s.txMeasured * frameSize,
                        rxFrames, s.rxMeasuredBytes, lost, s.measured.reordered(), s.measured.duplicates(),
                        s.txTotal, s.txTotal * frameSize, s.rxTotal, s.rxTotalBytes, warmLost,
                        s.kernel[0], s.kernel[1], s.foreign, txFps, txBps, rxFps, rxBps, s.queue));
            }
            return new RawResult(spec, List.copyOf(out), measuredNanos, senderCpu, receiverCpu, ts, steered, steeringNote,
                    rules, txNic, rxNic, List.copyOf(stampIntervals(ts)), txRetries, reasons.isEmpty(), List.copyOf(reasons), error);
        }
    }

    /** Hardware RX stamping on an interface: enabled if the driver applies a filter, restored afterwards. */
    private static final class HwStamps {
        final String ifname;
        final ByteBuffer name;
        final ByteBuffer previous = ByteBuffer.allocateDirect(Layout.HWTSTAMP_SIZE).order(ByteOrder.nativeOrder());
        boolean enabled;
        boolean changed;

        private HwStamps(String ifname) {
            this.ifname = ifname;
            this.name = EthtoolIoctl.cString(ifname);
        }

        static HwStamps enable(String ifname) {
            HwStamps h = new HwStamps(ifname);
            if (Native.hwtstamp(Native.address(h.name), Native.address(h.previous), 0) < 0) {
                return h; // no SIOCGHWTSTAMP (veth): software stamps only, nothing to restore
            }
            ByteBuffer cfg = ByteBuffer.allocateDirect(Layout.HWTSTAMP_SIZE).order(ByteOrder.nativeOrder());
            cfg.putInt(Layout.HWTSTAMP_TX_TYPE, h.previous.getInt(Layout.HWTSTAMP_TX_TYPE));
            cfg.putInt(Layout.HWTSTAMP_RX_FILTER, HWTSTAMP_FILTER_ALL);
            int rc = Native.hwtstamp(Native.address(h.name), Native.address(cfg), 1);
            // Read back what the driver applied; ERANGE means the filter is not supported.
            h.changed = rc == 0;
            h.enabled = rc == 0 && cfg.getInt(Layout.HWTSTAMP_RX_FILTER) != HWTSTAMP_FILTER_NONE;
            return h;
        }

        void restore() {
            if (changed) {
                Native.hwtstamp(Native.address(name), Native.address(previous), 1);
            }
        }
    }
}
