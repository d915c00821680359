package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.jni.Errno;
import io.linerate.afpacket.internal.TxRing;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends through a TPACKET_V2 TX ring: frames are written in place into free slots of the mapped
 * ring (an Agrona {@link UnsafeBuffer}), and one send call makes the kernel transmit every
 * requested slot.
 */
final class RingFrameSender implements FrameSender {
    private final String interfaceName;
    private final int frameSize;
    private final TxRing ring;
    private long refusals;

    private RingFrameSender(RawTransferSpec spec, String interfaceName, TxRing ring) {
        this.interfaceName = interfaceName;
        this.frameSize = spec.frameSize();
        this.ring = ring;
    }

    /** @throws AfPacketException if the ring cannot be set up; nothing stays open */
    static RingFrameSender open(RawTransferSpec spec, RawTransfer.Interface tx) throws AfPacketException {
        return new RingFrameSender(spec, tx.name(), TxRing.open(tx.name(), tx.index(), spec.frameSize(), Math.max(4096, 4 * spec.batch())));
    }

    @Override
    public int queue(TxStream s, int count, long now, int phase) throws AfPacketException {
        UnsafeBuffer f = ring.buffer();
        int queued = 0;
        while (queued < count) {
            int d = ring.dataOffset();
            if (d < 0) {
                break;
            }
            f.putBytes(d, s.ethHeader, 0, TxStream.ETH_HLEN);
            DatagramHeader.write(f, d + TxStream.ETH_HLEN, s.id, s.nextSeq + queued, now, phase);
            ring.request(frameSize);
            queued++;
        }
        return queued;
    }

    @Override
    public boolean flush() throws AfPacketException {
        int rc = ring.flush();
        if (rc == -Errno.ENOBUFS || rc == -Errno.EAGAIN) {
            refusals++;
            return false;
        }
        if (rc < 0) {
            throw new AfPacketException(interfaceName, "send (PACKET_TX_RING)", -rc,
                    -rc == Errno.ENETDOWN ? "the interface went down during the run" : "", false);
        }
        return true;
    }

    @Override
    public boolean drain(Clock clock, long deadline, IdleStrategy idle) throws AfPacketException {
        boolean drained = false;
        idle.reset();
        while (ring.pending() && clock.nanoTime() < deadline) {
            drained = true;
            flush();
            idle.idle();
        }
        return drained;
    }

    @Override
    public long refusals() {
        return refusals;
    }

    @Override
    public void close() {
        ring.close();
    }
}
