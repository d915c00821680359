package io.linerate.core.spi.cost;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Instructions the two measuring threads retired over a transfer, user and kernel
 * (PERF_COUNT_HW_INSTRUCTIONS): zperf's icount, a cost that does not depend on how fast the host
 * is. Where the host cannot count them (most virtual machines have no hardware counters) the
 * count is absent with the reason, never 0.
 *
 * @param sender instructions of the sending thread; -1 when not counted
 * @param receiver instructions of the receiving thread; -1 when not counted
 * @param unavailable why they were not counted; empty when both were
 */
public record InstructionCount(long sender, long receiver, Optional<String> unavailable) {
    /** @throws IllegalArgumentException when counts are given without both ends, or a reason with counts */
    public InstructionCount {
        Objects.requireNonNull(unavailable, "unavailable");
        if (unavailable.isEmpty() && (sender < 0 || receiver < 0)) {
            throw new IllegalArgumentException("instruction counts " + sender + " and " + receiver
                    + " must both be >= 0 when counted");
        }
    }

    /** @return both threads' counts */
    public static InstructionCount of(long sender, long receiver) {
        return new InstructionCount(sender, receiver, Optional.empty());
    }

    /** @return no counts, for the reason given */
    public static InstructionCount unavailable(String why) {
        return new InstructionCount(-1, -1, Optional.of(why));
    }

    /**
     * @param bytes payload bytes moved
     * @return both threads' instructions per payload byte; empty when not counted or no bytes
     */
    public OptionalDouble perByte(long bytes) {
        if (unavailable.isPresent() || bytes <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((double) (sender + receiver) / bytes);
    }
}
