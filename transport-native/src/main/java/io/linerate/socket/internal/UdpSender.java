package io.linerate.socket.internal;

import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.DatagramHeader;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.socket.DatagramBatch;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The send loop of a native UDP stream socket, shared by the ends in one JVM
 * ({@link NativeUdpTransfer}) and the ends for peers ({@link UdpPeerChannel}). Every datagram on
 * the wire carries its own {@link DatagramHeader}. By the spec's {@link io.linerate.core.StreamIo}:
 * batch 1, one {@code send(2)} per datagram; otherwise {@code sendmmsg(2)} of up to the batch's
 * datagrams per call ({@value #DEFAULT_BATCH} when the spec leaves it to the transport); with
 * {@code gso}, each message of the batch is a buffer of several payload-sized segments that the
 * kernel cuts into datagrams ({@code UDP_SEGMENT}, {@link UdpOffload}). At a rate only the
 * datagrams due go into a call ({@link SenderContext#messagesDue}). Buffers are allocated when the
 * loop is made; the loop allocates nothing, and each wait is a {@code poll(2)} of at most
 * {@link TcpLoops#POLL_MILLIS} ms.
 */
final class UdpSender {
    /** Datagrams per {@code sendmmsg(2)} or {@code recvmmsg(2)} call when the spec leaves it to the transport. */
    static final int DEFAULT_BATCH = 32;
    /** GSO buffers per {@code sendmmsg(2)} call when the spec leaves it to the transport: each holds up to 64 datagrams. */
    static final int DEFAULT_GSO_BATCH = 8;

    private final NativeSocket socket;
    private final int streamId;
    private final int payload;
    private final boolean gso;
    private final int segmentsPerMessage;
    private final DatagramBatch slots;
    private final ByteBuffer single;
    private final String call;
    private long calls;
    private long segments;
    private long maxPerCall;
    private volatile boolean ran;

    private UdpSender(TransferSpec spec, NativeSocket socket) {
        this.socket = socket;
        this.streamId = spec.streamId();
        this.payload = spec.payloadBytes();
        this.gso = spec.io().gso();
        int batch = batch(spec);
        this.segmentsPerMessage = gso ? UdpOffload.segmentsPerSend(payload) : 1;
        boolean each = batch == 1 && !gso;
        this.slots = each ? null : new DatagramBatch(batch, segmentsPerMessage * payload);
        this.single = each ? ByteBuffer.allocateDirect(payload) : null;
        this.call = each ? "send(2)" : gso ? "sendmmsg(2) with UDP_SEGMENT (" + payload + "-byte segments)" : "sendmmsg(2)";
    }

    /**
     * @param spec the stream's spec: payload, stream id, {@link io.linerate.core.StreamIo}
     * @param socket a UDP socket, connected or with a target; with {@code gso} this sets its
     *     {@code UDP_SEGMENT}
     * @throws IOException when the kernel refuses {@code UDP_SEGMENT} ({@link UdpOffload#enable})
     */
    static UdpSender of(TransferSpec spec, NativeSocket socket) throws IOException {
        if (spec.io().gso()) {
            UdpOffload.enable(socket, true, spec.payloadBytes());
        }
        return new UdpSender(spec, socket);
    }

    /** @return the spec's batch, or the transport's choice for 0: messages per call */
    static int batch(TransferSpec spec) {
        int b = spec.io().batch();
        return b != 0 ? b : spec.io().gso() ? DEFAULT_GSO_BATCH : DEFAULT_BATCH;
    }

    /**
     * Sends sequence-numbered, time-stamped datagrams until the context's bound.
     *
     * @throws IOException when a send fails (ECONNREFUSED after ICMP port unreachable from a peer
     *     that is gone; the first send with {@code UDP_SEGMENT} names the probe of {@code --gso}),
     *     or makes no progress for the I/O timeout
     */
    void run(SenderContext ctx) throws IOException {
        try {
            if (slots == null) {
                sendEach(ctx);
            } else {
                sendBatches(ctx);
            }
        } finally {
            ran = true;
        }
    }

    /** @return the call and what its calls carried, once {@link #run} has ended; empty before */
    Optional<DataPath.End> dataPathEnd() {
        return ran ? Optional.of(new DataPath.End(call, calls, segments, maxPerCall)) : Optional.empty();
    }

    private void sendEach(SenderContext ctx) throws IOException {
        long address = NativeSocket.address(single);
        long stallNanos = ctx.ioTimeoutNanos();
        Clock clock = ctx.clock();
        int n;
        while ((n = ctx.nextMessageBytes()) > 0 && ctx.pace()) {
            DatagramHeader.write(single, streamId, ctx.nextSequence(), clock.nanoTime(), ctx.phase());
            long waitingSince = System.nanoTime();
            while (true) {
                int w = socket.send(address, n, TcpLoops.POLL_MILLIS);
                if (w > 0) {
                    ctx.sent(w, true);
                    calls++;
                    segments++;
                    maxPerCall = 1;
                    break;
                }
                if (ctx.stopRequested()) {
                    return;
                }
                stalled(ctx, waitingSince, stallNanos);
            }
        }
    }

    private void sendBatches(SenderContext ctx) throws IOException {
        ByteBuffer data = slots.data();
        int slotBytes = slots.slotBytes();
        int most = slots.slots() * segmentsPerMessage;
        Clock clock = ctx.clock();
        while (ctx.nextMessageBytes() > 0 && ctx.pace()) {
            int due = ctx.messagesDue(most);
            if (due == 0) {
                return;
            }
            // one phase and one reading for the whole call: no phase is taken up until every
            // datagram of it was reported sent, so each counts in the phase it carries
            int phase = ctx.phase();
            long seq = ctx.nextSequence();
            long now = clock.nanoTime();
            int messages = (due + segmentsPerMessage - 1) / segmentsPerMessage;
            for (int m = 0; m < messages; m++) {
                int segs = segmentsOf(m, due);
                int base = m * slotBytes;
                for (int s = 0; s < segs; s++) {
                    DatagramHeader.write(data, base + s * payload, streamId, seq++, now, phase);
                }
                slots.length(m, segs * payload);
            }
            if (!sendAll(ctx, messages, due)) {
                return;
            }
        }
    }

    /** Sends slots 0..messages−1; false when a stop was requested before all left. */
    private boolean sendAll(SenderContext ctx, int messages, int due) throws IOException {
        long stallNanos = ctx.ioTimeoutNanos();
        long waitingSince = System.nanoTime();
        int done = 0;
        while (done < messages) {
            int n = send(done, messages - done);
            if (n > 0) {
                int segs = 0;
                for (int m = done; m < done + n; m++) {
                    int k = segmentsOf(m, due);
                    for (int s = 0; s < k; s++) {
                        ctx.sent(payload, true);
                    }
                    segs += k;
                }
                calls++;
                segments += segs;
                maxPerCall = Math.max(maxPerCall, segs);
                done += n;
                waitingSince = System.nanoTime();
            } else if (ctx.stopRequested()) {
                return false;
            } else {
                stalled(ctx, waitingSince, stallNanos);
            }
        }
        return true;
    }

    /** The first send with UDP_SEGMENT is the probe of --gso: its failure says so. */
    private int send(int first, int count) throws IOException {
        if (!gso || calls > 0) {
            return slots.send(socket, first, count, TcpLoops.POLL_MILLIS);
        }
        try {
            return slots.send(socket, first, count, TcpLoops.POLL_MILLIS);
        } catch (NativeSocketException e) {
            throw new IOException("--gso: the first " + call + ", its probe, failed: " + e.getMessage()
                    + "; the path refuses UDP GSO of this segment size (beyond the MTU, or a device without "
                    + "checksum offload)", e);
        }
    }

    /** @return segments of message m of a call of {@code due} datagrams: full but the last */
    private int segmentsOf(int m, int due) {
        return Math.min(segmentsPerMessage, due - m * segmentsPerMessage);
    }

    private void stalled(SenderContext ctx, long waitingSince, long stallNanos) throws NativeSocketException {
        if (System.nanoTime() - waitingSince > stallNanos) {
            throw NativeSocketException.timedOut(call + " on fd " + socket.fd() + " after " + ctx.bytesSent() + " bytes",
                    stallNanos / 1_000_000L);
        }
    }
}
