package io.linerate.core;

import java.util.Optional;

/**
 * The result of a raw-frame run ({@link RawTransferSpec}) that gives each end's counts as
 * {@link RawEndCounts}. A run with both ends here gives both; a TX-only or RX-only run gives its
 * one end.
 */
public interface RawEndsResult extends MeasurementResult {

    /** @return what the sending end counted; empty when the run had no sender */
    Optional<RawEndCounts> senderCounts();

    /** @return what the receiving end counted; empty when the run had no receiver */
    Optional<RawEndCounts> receiverCounts();
}
