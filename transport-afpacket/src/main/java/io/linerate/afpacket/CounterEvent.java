package io.linerate.afpacket;

/**
 * What the readings of one interface counter showed besides plain forward motion (DESIGN rule 2).
 * {@link NicCounters} counts each kind per counter and every result reports them, so a total that
 * may hide motion never looks clean.
 */
public enum CounterEvent {
    /**
     * A step that a 32-bit wrap would explain as well, with 2^32 more motion than was counted: the
     * counter was never seen at or above 2^32 and the link's known speed could have carried the
     * larger motion between the readings (a dip that stayed back, counted as a {@link #RESET};
     * or a climb, which could hide a whole wrap). A link fast enough for a wrap makes one
     * possible, not likely: the smaller motion is counted and the total is in doubt, possibly low
     * by 2^32 for each.
     */
    POSSIBLE_WRAP("possible_wraps"),
    /**
     * A reading below the last good one that the next reading climbed back over: the low reading
     * is left out and forward motion is measured from the last good reading.
     */
    GLITCH("glitches"),
    /**
     * Of the {@link #GLITCH glitches}, those that a reset followed by traffic would explain as
     * well: the link's speed is unknown, or the climb from the low reading fits within what the
     * link could have carried. Counted as glitches (the motion both explanations share), so the
     * total may be low by at least the dip's depth.
     */
    AMBIGUOUS("ambiguous"),
    /**
     * A step back that the next reading did not climb back over (it may have been a 32-bit wrap
     * too: then also a {@link #POSSIBLE_WRAP}), or a re-created interface (a new ifindex): the
     * motion between the last good reading and the reset, and the value the counter restarted
     * from, are not counted.
     */
    RESET("resets");

    private final String key;

    CounterEvent(String key) {
        this.key = key;
    }

    /** @return the plural name used in JSON keys and text: {@code possible_wraps}, {@code glitches}, ... */
    public String key() {
        return key;
    }
}
