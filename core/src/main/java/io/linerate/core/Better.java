package io.linerate.core;

/** Which direction of change is an improvement for a metric. */
public enum Better {
    /** Throughput-like: a drop is a regression. */
    HIGHER("higher"),
    /** Latency-like: a rise is a regression. */
    LOWER("lower");

    private final String label;

    Better(String label) {
        this.label = label;
    }

    /** @return {@code higher} or {@code lower}, as in ktap metric policies */
    public String label() {
        return label;
    }
}
