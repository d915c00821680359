package io.linerate.core;

import java.util.Optional;

/**
 * How one end waits for its channel to be ready, as sfnt-pingpong's {@code --muxer}: every wait is
 * bounded by the per-operation timeout in each mode.
 *
 * <p>{@link #SPIN} and {@link #BACKOFF} both poll a non-blocking channel and, after a poll that
 * found nothing, wait through an {@link Idle} strategy; they differ only in the default strategy
 * ({@link Idle#BUSY} and {@link Idle#BACKOFF}), and an explicit {@link Idle} replaces it. The
 * other modes wait in the kernel and take no idle strategy.
 */
public enum Muxer {
    /** Blocking reads and writes; a watchdog thread closes the channel when an operation overruns. */
    BLOCKING("blocking"),
    /** Non-blocking channel, waiting in a {@link java.nio.channels.Selector} (epoll on Linux). */
    SELECTOR("selector"),
    /** Non-blocking channel polled in a busy loop ({@link Idle#BUSY}); burns a core, lowest latency. */
    SPIN("spin"),
    /**
     * Non-blocking channel polled with {@link Idle#BACKOFF}: spins, then yields, then parks up to
     * 1 ms between polls; little CPU while idle, slower to notice an answer than {@link #SPIN}.
     */
    BACKOFF("backoff");

    private final String label;

    Muxer(String label) {
        this.label = label;
    }

    /** @return {@code blocking}, {@code selector}, {@code spin} or {@code backoff} */
    public String label() {
        return label;
    }

    /** @return whether this mode polls a non-blocking channel and idles between polls */
    public boolean polls() {
        return this == SPIN || this == BACKOFF;
    }

    /** @return the idle strategy of a polling mode; empty for the modes that wait in the kernel */
    public Optional<Idle> defaultIdle() {
        return switch (this) {
            case SPIN -> Optional.of(Idle.BUSY);
            case BACKOFF -> Optional.of(Idle.BACKOFF);
            default -> Optional.empty();
        };
    }

    /**
     * @param text a label, any case ({@code epoll} is accepted for {@code selector})
     * @return the mode
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Muxer parse(String text) {
        for (Muxer m : values()) {
            if (m.label.equalsIgnoreCase(text)) {
                return m;
            }
        }
        if ("epoll".equalsIgnoreCase(text)) {
            return SELECTOR;
        }
        throw new IllegalArgumentException("unknown muxer '" + text
                + "'; allowed: blocking, selector (or epoll), spin, backoff");
    }

    @Override
    public String toString() {
        return label;
    }
}
