package io.linerate.afpacket;

/** Which per-frame RX timestamps a raw transfer had (from each frame's {@code tp_status}). */
public enum Timestamping {
    /** Every measured frame carried a raw hardware stamp (TP_STATUS_TS_RAW_HARDWARE). */
    HARDWARE("hardware"),
    /** Every measured frame carried a software stamp taken on receive (TP_STATUS_TS_SOFTWARE). */
    SOFTWARE("software"),
    /** Frames carried different kinds of stamp. */
    MIXED("mixed"),
    /** No frame carried a receive stamp; the ring's copy time was all there was. */
    NONE("none");

    private final String label;

    Timestamping(String label) {
        this.label = label;
    }

    /** @return the lower-case name used in output */
    public String label() {
        return label;
    }
}
