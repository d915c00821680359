package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.core.DatagramHeader;
import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The sender's state of one stream. Only the sending thread writes it; {@link #published()} is
 * what other threads may read while it runs (in the sender's {@link PublishedCounters}, on cache
 * lines of their own), the rest only after it ended.
 */
final class TxStream {
    /** Ethernet header bytes before the payload. */
    static final int ETH_HLEN = 14;

    final int id;
    final int etherType;
    /** Destination MAC, source MAC and ethertype, in network order, as every frame of the stream starts. */
    final UnsafeBuffer ethHeader;
    /** The sequence number of the next frame; also the frames sent so far, all phases. */
    long nextSeq;
    /** Frames sent per phase of the run. */
    final long[] sentByPhase = new long[DatagramHeader.PHASES];
    private final PublishedCounters published;

    TxStream(int id, int etherType, byte[] dst, byte[] src, PublishedCounters published) {
        this.id = id;
        this.etherType = etherType;
        this.ethHeader = new UnsafeBuffer(ByteBuffer.allocateDirect(ETH_HLEN));
        ethHeader.putBytes(0, dst);
        ethHeader.putBytes(6, src);
        ethHeader.putShort(12, (short) etherType, java.nio.ByteOrder.BIG_ENDIAN);
        this.published = published;
    }

    /** @return one stream per ethertype of {@code spec}, publishing into one block of counters */
    static TxStream[] of(RawTransferSpec spec, byte[] dst, byte[] src) {
        TxStream[] out = new TxStream[spec.etherTypes().size()];
        PublishedCounters published = new PublishedCounters(out.length);
        for (int i = 0; i < out.length; i++) {
            out[i] = new TxStream(i, spec.etherTypes().get(i), dst, src, published);
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
        published.set(id, nextSeq);
    }

    /** @return frames sent, as of the last {@link #publish()}; any thread */
    long published() {
        return published.get(id);
    }

    /** @return the block this stream publishes into */
    PublishedCounters counters() {
        return published;
    }
}
