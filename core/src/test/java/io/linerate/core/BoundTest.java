package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BoundTest {
    @Test
    void aDurationUpToADayIsKeptInNanoseconds() {
        assertThat(Bound.duration(Duration.ofDays(1)).amount()).isEqualTo(86_400_000_000_000L);
        assertThat(Bound.duration(Duration.ofNanos(1)).amount()).isEqualTo(1);
    }

    @Test
    void aDurationBeyondADayIsNamedAsGivenNotAsASaturatedCount() {
        // 999999 h = 3,599,996,400 s: its nanoseconds do not fit a long
        assertThatThrownBy(() -> Bound.duration(Duration.ofHours(999_999)))
                .hasMessage("duration 999999h (3599996400 s) is out of range; allowed: up to 1 day");
        assertThatThrownBy(() -> Bound.duration(Duration.ofDays(1).plusSeconds(1)))
                .hasMessage("duration 24h1s (86401 s) is out of range; allowed: up to 1 day");
        assertThatThrownBy(() -> Bound.duration(Duration.ZERO)).hasMessageContaining("duration 0 ms is out of range; allowed: > 0");
    }

    @Test
    void countsMustBePositive() {
        assertThatThrownBy(() -> Bound.bytes(0)).hasMessageContaining("out of range; allowed: > 0");
        assertThat(Bound.messages(Long.MAX_VALUE).amount()).isEqualTo(Long.MAX_VALUE);
    }
}
