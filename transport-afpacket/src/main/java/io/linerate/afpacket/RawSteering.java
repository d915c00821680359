package io.linerate.afpacket;

import java.util.List;

/**
 * What happened with Flow Director steering in a raw transfer.
 *
 * @param steered whether rules steered the streams
 * @param note what happened (rules installed, not requested, or why not)
 * @param rules the rules installed (all removed again before the result was returned)
 */
public record RawSteering(boolean steered, String note, List<FlowSteering.Installed> rules) {
    /** Copies the rules. */
    public RawSteering {
        rules = List.copyOf(rules);
    }

    /** @return steering that was not asked for */
    public static RawSteering notRequested() {
        return new RawSteering(false, "not requested", List.of());
    }
}
