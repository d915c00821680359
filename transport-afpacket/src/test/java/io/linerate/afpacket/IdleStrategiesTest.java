package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.Idle;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class IdleStrategiesTest {

    @Test
    void eachModeIsTheAgronaStrategyItNames() {
        assertThat(IdleStrategies.sender(Optional.of(Idle.BUSY))).isInstanceOf(BusySpinIdleStrategy.class);
        assertThat(IdleStrategies.sender(Optional.of(Idle.YIELD))).isInstanceOf(YieldingIdleStrategy.class);
        assertThat(IdleStrategies.sender(Optional.of(Idle.BACKOFF))).isInstanceOf(BackoffIdleStrategy.class);
        assertThat(IdleStrategies.sender(Optional.of(Idle.SLEEP))).isInstanceOf(SleepingIdleStrategy.class);
        assertThat(IdleStrategies.receiver(Optional.of(Idle.BACKOFF))).isInstanceOf(BackoffIdleStrategy.class);
        // the defaults are what the loops did before there was a choice: the sender yields, the
        // receiver sleeps in poll(2), as it does with SLEEP
        assertThat(IdleStrategies.sender(Optional.empty())).isInstanceOf(YieldingIdleStrategy.class);
        assertThat(IdleStrategies.receiver(Optional.empty())).isNull();
        assertThat(IdleStrategies.receiver(Optional.of(Idle.SLEEP))).isNull();
    }

    @ParameterizedTest
    @EnumSource(Idle.class)
    void idlingAllocatesNothing(Idle mode) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "no per-thread allocation counter");
        IdleStrategy idle = IdleStrategies.sender(Optional.of(mode));
        // parks make turns slow: a backoff round of 64 turns parks about 40 ms, a sleep turn 50 µs and more
        int turns = switch (mode) {
            case BACKOFF -> 640;
            case SLEEP -> 200;
            default -> 20_000;
        };
        spin(idle, turns); // warm up: class loading and the first compilations allocate
        long id = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(id);
        spin(idle, turns);
        long after = mx.getThreadAllocatedBytes(id);
        // one allocation per turn would be at least 16 bytes × turns; the bound leaves room for the
        // JVM's own bookkeeping only
        assertThat(after - before).as("bytes allocated over %d turns of %s", turns, mode).isLessThan(1024);
    }

    private static void spin(IdleStrategy idle, int turns) {
        for (int i = 0; i < turns; i++) {
            if ((i & 63) == 0) {
                idle.reset();
            }
            idle.idle();
        }
    }
}
