package io.linerate.socket.internal;

import io.linerate.core.DataPath;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.socket.DatagramBatch;
import io.linerate.socket.NativeSocket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The receive loop of a native UDP stream socket, shared by the ends in one JVM
 * ({@link NativeUdpTransfer}) and the ends for peers ({@link UdpPeerChannel}). By the spec's
 * {@link io.linerate.core.StreamIo}: batch 1, one {@code recv(2)} per datagram; otherwise
 * {@code recvmmsg(2)} of up to the batch's messages per call ({@link UdpSender#batch}); with
 * {@code gso}, the socket takes coalesced datagrams ({@code UDP_GRO}, {@link UdpOffload}) and the
 * loop splits each by the segment size of its control message, accounting every segment by its
 * own header ({@link ReceiverContext#datagram(ByteBuffer, int, int)}). It counts the segments of
 * each call and the most one coalesced datagram held, so the result says whether the path
 * coalesced at all. Buffers are allocated when the loop is made; the loop allocates nothing.
 */
final class UdpReceiver {
    /** Largest datagram a receive holds, bytes: the nio transport's; one slot of a UDP_GRO batch. */
    static final int MAX_DATAGRAM_BYTES = 65536;

    private final NativeSocket socket;
    private final boolean gro;
    private final DatagramBatch slots;
    private final ByteBuffer single;
    private long calls;
    private long segments;
    private long maxPerCall;
    private long maxCoalesced;
    private volatile boolean ran;

    private UdpReceiver(TransferSpec spec, NativeSocket socket) {
        this.socket = socket;
        this.gro = spec.io().gso();
        int batch = UdpSender.batch(spec);
        boolean each = batch == 1 && !gro;
        this.slots = each ? null : new DatagramBatch(batch, gro ? MAX_DATAGRAM_BYTES : Math.max(spec.payloadBytes(), 1));
        this.single = each ? ByteBuffer.allocateDirect(MAX_DATAGRAM_BYTES) : null;
    }

    /**
     * @param spec the stream's spec: payload, stream id, {@link io.linerate.core.StreamIo}
     * @param socket a UDP socket; with {@code gso} this sets its {@code UDP_GRO}
     * @throws IOException when the kernel refuses {@code UDP_GRO} ({@link UdpOffload#enable})
     */
    static UdpReceiver of(TransferSpec spec, NativeSocket socket) throws IOException {
        if (spec.io().gso()) {
            UdpOffload.enable(socket, false, spec.payloadBytes());
        }
        return new UdpReceiver(spec, socket);
    }

    /** Accounts datagrams until told to stop. @throws IOException when a receive fails */
    void run(ReceiverContext ctx) throws IOException {
        try {
            if (slots == null) {
                receiveEach(ctx);
            } else {
                receiveBatches(ctx);
            }
        } finally {
            ran = true;
        }
    }

    /**
     * @return the call and what its calls carried, once {@link #run} has ended (empty before);
     *     with {@code UDP_GRO} the call names the most segments one coalesced datagram held, or
     *     that none was coalesced
     */
    Optional<DataPath.End> dataPathEnd() {
        if (!ran) {
            return Optional.empty();
        }
        String call = slots == null ? "recv(2)" : !gro ? "recvmmsg(2)"
                : "recvmmsg(2) with UDP_GRO (" + (maxCoalesced > 1 ? "at most " + maxCoalesced
                        + " segments per coalesced datagram" : "no datagram coalesced") + ")";
        return Optional.of(new DataPath.End(call, calls, segments, maxPerCall));
    }

    private void receiveEach(ReceiverContext ctx) throws IOException {
        long address = NativeSocket.address(single);
        while (!ctx.stopRequested()) {
            int r = socket.receive(address, MAX_DATAGRAM_BYTES, TcpLoops.POLL_MILLIS);
            if (r > 0) {
                ctx.datagram(single, r);
                calls++;
                segments++;
                maxPerCall = 1;
            }
        }
    }

    private void receiveBatches(ReceiverContext ctx) throws IOException {
        ByteBuffer data = slots.data();
        int slotBytes = slots.slotBytes();
        while (!ctx.stopRequested()) {
            int n = slots.receive(socket, TcpLoops.POLL_MILLIS);
            if (n <= 0) {
                continue;
            }
            long segs = 0;
            for (int m = 0; m < n; m++) {
                segs += split(ctx, data, m * slotBytes, slots.length(m), slots.segmentSize(m));
            }
            calls++;
            segments += segs;
            maxPerCall = Math.max(maxPerCall, segs);
        }
    }

    /** Accounts the segments of one message at {@code base}; @return how many */
    private int split(ReceiverContext ctx, ByteBuffer data, int base, int length, int size) {
        if (size <= 0 || size >= length) {
            ctx.datagram(data, base, length);
            return 1;
        }
        int k = 0;
        for (int off = 0; off < length; off += size) {
            ctx.datagram(data, base + off, Math.min(size, length - off));
            k++;
        }
        maxCoalesced = Math.max(maxCoalesced, k);
        return k;
    }
}
