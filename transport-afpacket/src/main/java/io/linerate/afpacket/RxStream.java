package io.linerate.afpacket;

import io.linerate.afpacket.internal.RxRing;
import io.linerate.core.DatagramHeader;
import io.linerate.core.spi.SequenceTracker;

/**
 * The receiver's state of one stream, with the ring it reads. As the stream engine's receiver
 * does, it keeps one sequence tracker over the whole run and its counts per phase in which the
 * frames were sent, so the window's accounting covers exactly the frames sent inside the window.
 * Only the receiving thread writes it; what it {@linkplain #publish() publishes} (in the
 * receiver's {@link PublishedCounters}, on cache lines of their own) other threads may read while
 * it runs, the rest only after it ended (the ring statistics only from the monitoring thread).
 */
final class RxStream {
    final int id;
    final int etherType;
    final RxRing ring;
    final SequenceTracker tracker = new SequenceTracker();
    final long[] distinctByPhase = new long[DatagramHeader.PHASES];
    final long[] bytesByPhase = new long[DatagramHeader.PHASES];
    final long[] reorderedByPhase = new long[DatagramHeader.PHASES];
    final long[] duplicatesByPhase = new long[DatagramHeader.PHASES];
    /** Frames with this stream's header, duplicates included, and their bytes. */
    long frames;
    long bytes;
    long foreign;
    /** PACKET_STATISTICS packets and drops, accumulated; monitoring thread only. */
    final long[] kernel = new long[2];
    /** Counters published per stream: frames, bytes, distinct frames, sequence numbers missing so far. */
    static final int PUBLISHED_PER_STREAM = 4;
    private final PublishedCounters published;

    /** @param published the receiver's block, with {@value #PUBLISHED_PER_STREAM} counters per stream */
    RxStream(int id, int etherType, RxRing ring, PublishedCounters published) {
        this.id = id;
        this.etherType = etherType;
        this.ring = ring;
        this.published = published;
    }

    /** Accounts one frame that carried this stream's header; allocation-free. */
    void frame(long seq, int phase, long length) {
        frames++;
        bytes += length;
        SequenceTracker.Arrival a = tracker.onArrival(seq);
        switch (a) {
            case IN_ORDER -> {
                distinctByPhase[phase]++;
                bytesByPhase[phase] += length;
            }
            case REORDERED -> {
                distinctByPhase[phase]++;
                bytesByPhase[phase] += length;
                reorderedByPhase[phase]++;
            }
            case DUPLICATE -> duplicatesByPhase[phase]++;
            default -> foreign++;
        }
    }

    /**
     * Publishes the frames and bytes received so far, the distinct frames and the sequence numbers
     * missing so far (ordered stores).
     */
    void publish() {
        int base = id * PUBLISHED_PER_STREAM;
        published.set(base, frames);
        published.set(base + 1, bytes);
        published.set(base + 2, tracker.distinct());
        published.set(base + 3, tracker.missingSoFar());
    }

    /** @return frames received, as of the last {@link #publish()}; any thread */
    long published() {
        return published.get(id * PUBLISHED_PER_STREAM);
    }

    /** @return bytes of those frames, as of the last {@link #publish()}; any thread */
    long publishedBytes() {
        return published.get(id * PUBLISHED_PER_STREAM + 1);
    }

    /** @return distinct frames received, as of the last {@link #publish()}; any thread */
    long publishedDistinct() {
        return published.get(id * PUBLISHED_PER_STREAM + 2);
    }

    /** @return sequence numbers below the highest seen that had not arrived, as of the last {@link #publish()}; any thread */
    long publishedMissing() {
        return published.get(id * PUBLISHED_PER_STREAM + 3);
    }

    /** @return distinct frames received, all phases; receiving thread only */
    long distinct() {
        return tracker.distinct();
    }
}
