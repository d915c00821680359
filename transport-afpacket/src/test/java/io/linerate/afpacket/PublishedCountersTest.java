package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PublishedCountersTest {

    @Test
    void blocksAreWholePairsOfCacheLinesSoTwoWritersNeverShareALine() {
        // 3 counters are 24 bytes, one granule of 2 × 64; 17 counters are 136 bytes, two granules
        PublishedCounters tx = new PublishedCounters(3);
        PublishedCounters rx = new PublishedCounters(17);
        assertThat(PublishedCounters.GRANULE).isEqualTo(128);
        assertThat(tx.length()).isEqualTo(128);
        assertThat(rx.length()).isEqualTo(256);
        assertThat(tx.address() % 128).isZero();
        assertThat(rx.address() % 128).isZero();
        // whole granules each: the two blocks' cache lines are disjoint
        long txFirst = tx.address() / 64;
        long txLast = (tx.address() + tx.length() - 1) / 64;
        long rxFirst = rx.address() / 64;
        long rxLast = (rx.address() + rx.length() - 1) / 64;
        assertThat(txLast < rxFirst || rxLast < txFirst).isTrue();
    }

    @Test
    void aPublishedValueIsReadBack() {
        PublishedCounters c = new PublishedCounters(2);
        assertThat(c.get(0)).isZero();
        assertThat(c.get(1)).isZero();
        c.set(1, 42);
        c.set(0, Long.MAX_VALUE);
        assertThat(c.get(1)).isEqualTo(42);
        assertThat(c.get(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(c.count()).isEqualTo(2);
    }
}
