package io.linerate.afpacket;

import java.util.Locale;

/**
 * What paced the sender of a raw run. When both ends run in this process and the run is not
 * unpaced, the sender never has more than {@code creditFrames} frames of a stream in flight
 * (sent, and neither read by the receiver nor known lost), below the {@code ringFrames} its RX
 * ring holds, so linerate's own ring does not overflow.
 *
 * @param governed what set the pace: {@link Governor#CREDIT} (the receiver's credit; also with a
 *     rate when the sender ever waited for credit), {@link Governor#RATE} (the {@code --rate}
 *     schedule) or {@link Governor#NONE} (full rate, unpaced or with no receiver here)
 * @param creditFrames the credit, frames in flight per stream at most; 0 without credit
 * @param ringFrames frames each RX ring surely holds (a lower bound); 0 without credit
 * @param ringBytes bytes of each RX ring; 0 without credit
 * @param creditWaits times the sender ran out of credit and waited for it
 * @param maxInFlight most frames of a stream in flight right after a send, an upper bound of
 *     those in the ring then; 0 without credit
 */
public record RawPacing(Governor governed, long creditFrames, long ringFrames, long ringBytes, long creditWaits,
                        long maxInFlight) {
    /** What set the sender's pace. */
    public enum Governor {
        /** The receiver's credit. */
        CREDIT,
        /** The rate schedule. */
        RATE,
        /** Nothing: full rate. */
        NONE;

        /** @return {@code credit}, {@code rate} or {@code none} */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** @return pacing without credit: by the rate, or none at 0 bit/s */
    static RawPacing withoutCredit(long rateBitsPerSecond) {
        return new RawPacing(rateBitsPerSecond > 0 ? Governor.RATE : Governor.NONE, 0, 0, 0, 0, 0);
    }

    /** @return whether the receiver's credit bounded the sender */
    public boolean credited() {
        return creditFrames > 0;
    }
}
