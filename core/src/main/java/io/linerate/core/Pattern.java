package io.linerate.core;

import java.util.Locale;

/**
 * The shape of a measurement: which way messages move and what is timed. Each pattern has its own
 * spec type under {@link MeasurementSpec}.
 */
public enum Pattern {
    /** One-way bulk data, TCP or UDP, as iperf3 and zperf measure it: {@link TransferSpec}. */
    STREAM,
    /** One message at a time bounced off an echo server, as sfnt-pingpong and sockperf time it: {@link PingPongSpec}. */
    PING_PONG,
    /** Request/response transactions over one or more flows, as netperf's TCP_RR and TCP_CRR run them: {@link RrSpec}. */
    REQUEST_RESPONSE,
    /** Raw Ethernet frames from one interface to another: {@link RawTransferSpec}. */
    RAW_FRAMES;

    /** @return the name used on the command line and in JSON: {@code stream}, {@code ping-pong}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
