package io.linerate.afpacket;

import io.linerate.core.DatagramHeader;
import java.nio.ByteBuffer;

/**
 * The sender's state of one stream. Only the sending thread writes it; {@link #published()} is
 * what other threads may read while it runs, the rest only after it ended.
 */
final class TxStream {
    /** Ethernet header bytes before the payload. */
    static final int ETH_HLEN = 14;

    final int id;
    final int etherType;
    /** Destination MAC, source MAC and ethertype, in network order, as every frame of the stream starts. */
    final ByteBuffer ethHeader;
    /** The sequence number of the next frame; also the frames sent so far, all phases. */
    long nextSeq;
    /** Frames sent per phase of the run. */
    final long[] sentByPhase = new long[DatagramHeader.PHASES];
    private volatile long published;

    TxStream(int id, int etherType, byte[] dst, byte[] src) {
        this.id = id;
        this.etherType = etherType;
        this.ethHeader = ByteBuffer.allocateDirect(ETH_HLEN);
        ethHeader.put(0, dst).put(6, src).putShort(12, (short) etherType);
    }

    static TxStream[] of(RawTransferSpec spec, byte[] dst, byte[] src) {
        TxStream[] out = new TxStream[spec.etherTypes().size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new TxStream(i, spec.etherTypes().get(i), dst, src);
        }
        return out;
    }

    /** Counts {@code n} frames sent in {@code phase}; sending thread only. */
    void sent(int n, int phase) {
        nextSeq += n;
        sentByPhase[phase] += n;
    }

    /** Makes the frames sent so far visible to readers of {@link #published()} (an ordered store). */
    void publish() {
        published = nextSeq;
    }

    /** @return frames sent, as of the last {@link #publish()} */
    long published() {
        return published;
    }
}
