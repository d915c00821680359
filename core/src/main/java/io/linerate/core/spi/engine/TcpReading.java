package io.linerate.core.spi.engine;

import io.linerate.core.TcpIntervalSample;
import java.util.Optional;

/**
 * The sending socket's {@code TCP_INFO} at one {@link Reading}, or {@link #NONE} where it was not
 * read (no probe, or the probe failed).
 */
record TcpReading(long totalRetransmits, long cwndBytes, long rttMicros, long rttVarMicros, long pacingRate,
                  long deliveryRate) {
    /** Not read. */
    static final TcpReading NONE = new TcpReading(-1, -1, -1, -1, -1, -1);

    /**
     * @param probe the transport's probe, or null for none
     * @param figures the reused holder the probe fills
     * @return what the probe read now, or {@link #NONE}
     */
    static TcpReading take(TcpProbe probe, TcpFigures figures) {
        if (probe == null || !probe.read(figures) || figures.totalRetransmits() < 0) {
            return NONE;
        }
        return new TcpReading(figures.totalRetransmits(), figures.cwndBytes(), figures.rttMicros(),
                figures.rttVarMicros(), figures.pacingRate(), figures.deliveryRate());
    }

    /**
     * @param from the reading at the interval's start
     * @return the interval from {@code from} to this reading; empty when either end was not read,
     *     or when the counter went back (a different socket), which no interval can hold
     */
    Optional<TcpIntervalSample> since(TcpReading from) {
        if (from.totalRetransmits < 0 || totalRetransmits < from.totalRetransmits) {
            return Optional.empty();
        }
        return Optional.of(new TcpIntervalSample(totalRetransmits - from.totalRetransmits, cwndBytes, rttMicros,
                rttVarMicros, pacingRate, deliveryRate));
    }
}
