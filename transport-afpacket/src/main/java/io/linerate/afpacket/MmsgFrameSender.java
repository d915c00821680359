package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.jni.Errno;
import io.linerate.afpacket.internal.Native;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends with sendmmsg on an AF_PACKET socket with PACKET_QDISC_BYPASS: each stream has a batch of
 * frames laid out back to back in native memory (an Agrona {@link UnsafeBuffer}), Ethernet
 * headers written once, and a send plan (the message headers and iovecs sendmmsg takes) prepared
 * once beside it; a call stamps the linerate headers of the frames it sends and hands them over in
 * one system call.
 */
final class MmsgFrameSender implements FrameSender {
    private final String interfaceName;
    private final int frameSize;
    private final int fd;
    private final UnsafeBuffer[] batches;
    /** Per stream, the send plan over its batch; kept referenced so the memory stays. */
    private final UnsafeBuffer[] plans;
    private boolean closed;

    private MmsgFrameSender(RawTransferSpec spec, RawTransfer.Interface tx, int fd, TxStream[] streams) {
        this.interfaceName = tx.name();
        this.frameSize = spec.frameSize();
        this.fd = fd;
        int batch = spec.batch();
        batches = new UnsafeBuffer[streams.length];
        plans = new UnsafeBuffer[streams.length];
        int planSize = Math.toIntExact(Native.sendPlanSize(batch));
        for (TxStream s : streams) {
            UnsafeBuffer b = new UnsafeBuffer(BufferUtil.allocateDirectAligned(batch * frameSize, PublishedCounters.GRANULE));
            for (int i = 0; i < batch; i++) {
                b.putBytes(i * frameSize, s.ethHeader, 0, TxStream.ETH_HLEN);
            }
            UnsafeBuffer plan = new UnsafeBuffer(BufferUtil.allocateDirectAligned(planSize, PublishedCounters.GRANULE));
            int rc = Native.prepareSend(plan.addressOffset(), tx.index(), s.etherType, b.addressOffset(), frameSize, batch);
            if (rc < 0) {
                throw new IllegalStateException("cannot prepare a send plan of " + batch + " frames of " + frameSize + " bytes: "
                        + Errno.describe(-rc));
            }
            batches[s.id] = b;
            plans[s.id] = plan;
        }
    }

    /** @throws AfPacketException if the socket cannot be set up; nothing stays open */
    static MmsgFrameSender open(RawTransferSpec spec, RawTransfer.Interface tx, TxStream[] streams) throws AfPacketException {
        int fd = Native.openTx(tx.index(), 1, 0);
        if (fd < 0) {
            throw new AfPacketException(tx.name(), "AF_PACKET TX socket setup (PACKET_QDISC_BYPASS)", -fd, "",
                    -fd == Errno.EPERM);
        }
        try {
            return new MmsgFrameSender(spec, tx, fd, streams);
        } catch (RuntimeException | Error e) {
            Native.close(fd);
            throw e;
        }
    }

    @Override
    public int queue(TxStream s, int count, long now, int phase) throws AfPacketException {
        UnsafeBuffer b = batches[s.id];
        for (int i = 0; i < count; i++) {
            DatagramHeader.write(b, i * frameSize + TxStream.ETH_HLEN, s.id, s.nextSeq + i, now, phase);
        }
        int rc = Native.send(fd, plans[s.id].addressOffset(), count);
        if (rc >= 0) {
            return rc;
        }
        if (rc == -Errno.ENOBUFS || rc == -Errno.EAGAIN) {
            return 0;
        }
        throw new AfPacketException(interfaceName, "sendmmsg", -rc,
                -rc == Errno.ENETDOWN ? "the interface went down during the run" : "", false);
    }

    @Override
    public boolean flush() {
        return true;
    }

    @Override
    public boolean drain(Clock clock, long deadline, IdleStrategy idle) {
        return false;
    }

    @Override
    public long refusals() {
        return 0;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Native.close(fd);
        }
    }
}
