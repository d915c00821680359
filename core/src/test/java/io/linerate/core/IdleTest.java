package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

class IdleTest {

    @Test
    void labelsParseToTheirAgronaStrategies() {
        assertThat(Idle.parse("busy").newStrategy()).isInstanceOf(BusySpinIdleStrategy.class);
        assertThat(Idle.parse("YIELD").newStrategy()).isInstanceOf(YieldingIdleStrategy.class);
        assertThat(Idle.parse("Backoff").newStrategy()).isInstanceOf(BackoffIdleStrategy.class);
        assertThat(Idle.parse("sleep").newStrategy()).isInstanceOf(SleepingIdleStrategy.class);
        // one strategy per thread: each call makes a new one
        assertThat(Idle.BACKOFF.newStrategy()).isNotSameAs(Idle.BACKOFF.newStrategy());
    }

    @Test
    void anUnknownLabelNamesTheValueAndTheAllowedOnes() {
        assertThatThrownBy(() -> Idle.parse("spin"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown idle strategy 'spin'; allowed: busy, yield, backoff, sleep");
    }

    @Test
    void theLongestStepIsTheLongestParkAsked() {
        // Agrona's documented defaults: backoff parks up to 1 ms, the sleeping strategy 1 us
        assertThat(Idle.BUSY.longestStepNanos()).isZero();
        assertThat(Idle.YIELD.longestStepNanos()).isZero();
        assertThat(Idle.BACKOFF.longestStepNanos()).isEqualTo(1_000_000L);
        assertThat(Idle.SLEEP.longestStepNanos()).isEqualTo(1_000L);
        assertThat(Idle.BACKOFF_SPINS).isEqualTo(10);
        assertThat(Idle.BACKOFF_YIELDS).isEqualTo(5);
    }
}
