package io.linerate.nio.latency;

/**
 * How one end waits for its channel to be ready, as sfnt-pingpong's {@code --muxer}: every wait is
 * bounded by the per-operation timeout in each mode.
 */
public enum Muxer {
    /** Blocking reads and writes; a watchdog thread closes the channel when an operation overruns. */
    BLOCKING("blocking"),
    /** Non-blocking channel, waiting in a {@link java.nio.channels.Selector} (epoll on Linux). */
    SELECTOR("selector"),
    /** Non-blocking channel polled in a busy loop; burns a core, lowest latency. */
    SPIN("spin");

    private final String label;

    Muxer(String label) {
        this.label = label;
    }

    /** @return {@code blocking}, {@code selector} or {@code spin} */
    public String label() {
        return label;
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
        throw new IllegalArgumentException("unknown muxer '" + text + "'; allowed: blocking, selector (or epoll), spin");
    }

    @Override
    public String toString() {
        return label;
    }
}
