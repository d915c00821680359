package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.DatagramHeader;
import org.junit.jupiter.api.Test;

class RxStreamTest {
    private static final int WARMUP = DatagramHeader.WARMUP;
    private static final int WINDOW = DatagramHeader.WINDOW;

    @Test
    void framesAreCountedInThePhaseTheyWereSentInWhateverOrderTheyArrive() {
        RxStream s = new RxStream(1, 0x88b5, null, new PublishedCounters(2 * RxStream.PUBLISHED_PER_STREAM));
        // warm-up frames 0..2, window frames 3..6; 1 arrives late (inside the window's arrivals),
        // 5 arrives twice, 4 arrives after 6, 2 never arrives
        s.frame(0, WARMUP, 100);
        s.frame(3, WINDOW, 100);
        s.frame(1, WARMUP, 100);
        s.frame(5, WINDOW, 100);
        s.frame(5, WINDOW, 100);
        s.frame(6, WINDOW, 100);
        s.frame(4, WINDOW, 100);
        s.frame(-1, WINDOW, 100);

        // warm-up: 0 and 1 distinct (1 after 3: reordered), 2 missing
        assertThat(s.distinctByPhase[WARMUP]).isEqualTo(2);
        assertThat(s.reorderedByPhase[WARMUP]).isEqualTo(1);
        assertThat(s.bytesByPhase[WARMUP]).isEqualTo(200);
        // window: 3, 5, 6, 4 distinct (4 after 6: reordered), 5 once more a duplicate
        assertThat(s.distinctByPhase[WINDOW]).isEqualTo(4);
        assertThat(s.reorderedByPhase[WINDOW]).isEqualTo(1);
        assertThat(s.duplicatesByPhase[WINDOW]).isEqualTo(1);
        assertThat(s.bytesByPhase[WINDOW]).isEqualTo(400);
        // every frame with the header counts in the totals, the duplicate and the bad sequence number
        // included, as the interface counters see them; the negative sequence number is foreign
        assertThat(s.frames).isEqualTo(8);
        assertThat(s.bytes).isEqualTo(800);
        assertThat(s.foreign).isEqualTo(1);
        assertThat(s.distinct()).isEqualTo(6);
        assertThat(s.published()).isZero();
        s.publish();
        assertThat(s.published()).isEqualTo(8);
        assertThat(s.publishedBytes()).isEqualTo(800);
        // highest 6, distinct 6 (0, 1, 3, 4, 5, 6): 2 is missing
        assertThat(s.publishedDistinct()).isEqualTo(6);
        assertThat(s.publishedMissing()).isEqualTo(1);
    }
}
