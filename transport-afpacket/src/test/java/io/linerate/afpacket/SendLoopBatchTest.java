package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A paced sender's batch carries at most 1 ms of traffic, so low rates are not sent a whole batch at a time. */
class SendLoopBatchTest {
    @Test
    void unlimitedKeepsTheBatch() {
        assertThat(SendLoop.pacedBatch(64, 0, 60)).isEqualTo(64);
        assertThat(SendLoop.pacedBatch(1, 0, 1514)).isEqualTo(1);
    }

    @Test
    void pacedBatchIsTheFramesDueInOneMillisecond() {
        // 1 Mbit/s of 1514-byte frames: 1e6 / 12112 = 82.6 frames/s, 0.08 a millisecond: one frame a call
        assertThat(SendLoop.pacedBatch(64, 1_000_000, 1514)).isEqualTo(1);
        // 10 Mbit/s of 60-byte frames: 1e7 / 480 = 20833 frames/s, 20.8 a millisecond
        assertThat(SendLoop.pacedBatch(64, 10_000_000, 60)).isEqualTo(20);
        // 100 Mbit/s of 60-byte frames: 208.3 a millisecond, capped by the batch
        assertThat(SendLoop.pacedBatch(64, 100_000_000, 60)).isEqualTo(64);
        assertThat(SendLoop.pacedBatch(16, 10_000_000, 60)).isEqualTo(16);
    }
}
