package io.linerate.core.latency;

/**
 * What a latency value is: half of a round trip (the default, as sfnt-pingpong and sockperf
 * report it) or the whole round trip (DESIGN rule 6). Every output names it.
 */
public enum LatencyMode {
    /** Round-trip time divided by 2, in ns. */
    HALF_RTT("half-RTT", "half-rtt", 2),
    /** The whole round-trip time, in ns. */
    RTT("RTT", "rtt", 1);

    private final String label;
    private final String key;
    private final int divisor;

    LatencyMode(String label, String key, int divisor) {
        this.label = label;
        this.key = key;
        this.divisor = divisor;
    }

    /** @return {@code half-RTT} or {@code RTT}, as printed in table headers and JSON */
    public String label() {
        return label;
    }

    /** @return {@code half-rtt} or {@code rtt}, the value of the {@code latency} metric label */
    public String key() {
        return key;
    }

    /** @return what a recorded round-trip time is divided by to give this mode's value: 2 or 1 */
    public int divisor() {
        return divisor;
    }

    /** @return {@link #RTT} when {@code roundTrips}, else {@link #HALF_RTT} */
    public static LatencyMode of(boolean roundTrips) {
        return roundTrips ? RTT : HALF_RTT;
    }
}
