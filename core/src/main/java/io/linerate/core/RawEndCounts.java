package io.linerate.core;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one end of a raw-frame run ({@link RawTransferSpec}) counted, as the transport that ran it
 * gives it ({@link RawEndsResult}): typed, so that code joining this end with a peer's needs
 * neither the transport's own types nor its JSON.
 *
 * @param sender whether the end sent (else it received)
 * @param interfaceName the end's interface
 * @param streams per ethertype, in the spec's order: what the end counted
 * @param cpuNanos the end's CPU time, ns
 * @param nicPackets the packets its interface counted over the run ({@code tx_packets} of a
 *     sender, {@code rx_packets} of a receiver, from {@code /sys/class/net/IF/statistics}), when
 *     they were read
 */
public record RawEndCounts(boolean sender, String interfaceName, List<StreamCounts> streams, long cpuNanos,
                           OptionalLong nicPackets) {

    /**
     * One stream's counts at one end.
     *
     * @param etherType the stream's ethertype
     * @param windowFrames frames of the measured window: sent, or distinct frames received
     * @param windowBytes their bytes (L2, without FCS)
     * @param totalFrames frames, warm-up included
     * @param ringDrops frames the receiving end's kernel ring dropped ({@code PACKET_STATISTICS}
     *     {@code tp_drops}); 0 for a sender
     */
    public record StreamCounts(int etherType, long windowFrames, long windowBytes, long totalFrames, long ringDrops) {}

    /** Copies the list. */
    public RawEndCounts {
        Objects.requireNonNull(interfaceName, "interfaceName");
        streams = List.copyOf(streams);
        Objects.requireNonNull(nicPackets, "nicPackets");
    }

    /** @return the counts of the stream of {@code etherType}, if the end ran it */
    public Optional<StreamCounts> stream(int etherType) {
        return streams.stream().filter(s -> s.etherType() == etherType).findFirst();
    }
}
