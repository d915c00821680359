package io.linerate.afpacket;

import io.linerate.afpacket.EthernetWire;
import io.linerate.core.search.SearchResult;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What a rate search over raw frames found at one frame size. Rates of the search are L2 bit/s
 * (frame bytes without FCS × 8); frames/s, L1 bit/s and the percentage of line rate follow from
 * them by {@link EthernetWire}.
 *
 * @param frameSize L2 bytes per frame without FCS
 * @param search the search at that size
 * @param link the link the frames crossed: the slower of the two ends, or why there is no line rate
 */
public record RawSizeResult(int frameSize, SearchResult search, LinkSpeed link) {
    /** @throws NullPointerException for a null search or link */
    public RawSizeResult {
        Objects.requireNonNull(search, "search");
        Objects.requireNonNull(link, "link");
    }

    /** @return {@code raw_<frameSize>}: the marker of this size's metrics, such as {@code raw_60_ndr_mbps} */
    public String marker() {
        return "raw_" + frameSize;
    }

    /** @return the frame size as RFC 2544 counts it, with the 4-byte FCS: 64 for 60 */
    public int rfc2544FrameSize() {
        return frameSize + EthernetWire.FCS_BYTES;
    }

    /** @return the found rate in frames/s: found L2 bit/s / (frame size × 8); empty when nothing was found */
    public OptionalDouble foundFramesPerSecond() {
        return search.found().isPresent()
                ? OptionalDouble.of(EthernetWire.framesPerSecond(search.found().getAsLong(), frameSize)) : OptionalDouble.empty();
    }

    /** @return the found rate on the wire, bit/s: frames/s × (frame size + 24) × 8; empty when nothing was found */
    public OptionalDouble foundL1BitsPerSecond() {
        OptionalDouble fps = foundFramesPerSecond();
        return fps.isPresent() ? OptionalDouble.of(EthernetWire.l1BitsPerSecond(fps.getAsDouble(), frameSize)) : OptionalDouble.empty();
    }

    /** @return the link's line rate at this size, frames/s; empty without a real link */
    public OptionalDouble lineRateFramesPerSecond() {
        return link.bitsPerSecond().isPresent()
                ? OptionalDouble.of(EthernetWire.lineRateFramesPerSecond(link.bitsPerSecond().getAsLong(), frameSize))
                : OptionalDouble.empty();
    }

    /** @return the found rate as a percentage of line rate; empty without a real link or a found rate */
    public OptionalDouble percentOfLineRate() {
        if (link.bitsPerSecond().isEmpty() || search.found().isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(EthernetWire.percentOfLineRate(search.found().getAsLong(), frameSize,
                link.bitsPerSecond().getAsLong()));
    }
}
