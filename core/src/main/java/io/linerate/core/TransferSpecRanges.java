package io.linerate.core;

import java.time.Duration;

/**
 * The allowed range of every value of a {@link TransferSpec}, and the combinations that make no
 * sense (a full log or TCP_NODELAY off their protocol). {@link TransferSpec.Builder#build()} checks
 * each spec here before it hands it out; the first bad value is reported with its allowed range.
 */
final class TransferSpecRanges {
    private TransferSpecRanges() {}

    /**
     * @param spec a spec just built, not yet handed out
     * @return {@code spec}, when every value is in range
     * @throws IllegalArgumentException naming the first bad value and its allowed range
     */
    static TransferSpec check(TransferSpec spec) {
        Protocol protocol = spec.protocol();
        AddressFamily family = spec.family();
        int payloadBytes = spec.payloadBytes();
        int min = PayloadLimits.minPayloadBytes(protocol);
        int max = PayloadLimits.maxPayloadBytes(protocol, family);
        if (payloadBytes < min || payloadBytes > max) {
            String what = protocol == Protocol.UDP
                    ? "UDP over IPv" + family.label()
                    : "TCP";
            throw new IllegalArgumentException("payload " + payloadBytes + " bytes is out of range: "
                    + what + " allows " + min + ".." + max + " bytes");
        }
        if (spec.rateBitsPerSecond() < 0) {
            throw new IllegalArgumentException("rate " + spec.rateBitsPerSecond()
                    + " bit/s is out of range; allowed: 0 (unlimited) or more");
        }
        if (spec.trafficClass() < 0 || spec.trafficClass() > 255) {
            throw new IllegalArgumentException("traffic class " + spec.trafficClass() + " is out of range; allowed: 0..255");
        }
        if (spec.sendBufferBytes() < 0) {
            throw new IllegalArgumentException("send buffer " + spec.sendBufferBytes()
                    + " bytes is out of range; allowed: 0 (kernel default) or more");
        }
        if (spec.receiveBufferBytes() < 0) {
            throw new IllegalArgumentException("receive buffer " + spec.receiveBufferBytes()
                    + " bytes is out of range; allowed: 0 (kernel default) or more");
        }
        Duration warmup = spec.warmup();
        if (warmup.isNegative() || warmup.compareTo(Bound.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("warm-up " + Units.text(warmup) + " is out of range; allowed: 0 ms..1 day");
        }
        Duration interval = spec.interval();
        if (interval.compareTo(TransferSpec.MIN_INTERVAL) < 0 || interval.compareTo(Bound.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("interval " + Units.text(interval) + " is out of range; allowed: 10 ms..1 day");
        }
        if (spec.port() < 0 || spec.port() > 65535) {
            throw new IllegalArgumentException("port " + spec.port() + " is out of range; allowed: 0 (ephemeral)..65535");
        }
        Duration ioTimeout = spec.ioTimeout();
        if (ioTimeout.toMillis() < 1 || ioTimeout.compareTo(TransferSpec.MAX_IO_TIMEOUT) > 0) {
            throw new IllegalArgumentException("I/O timeout " + Units.text(ioTimeout) + " is out of range; allowed: 1 ms..10 min");
        }
        Duration pacingTimer = spec.pacingTimer();
        if (pacingTimer.isNegative() || pacingTimer.compareTo(TransferSpec.MAX_PACING_TIMER) > 0) {
            String v = pacingTimer.abs().compareTo(Bound.MAX_DURATION) > 0 ? pacingTimer.toString() : pacingTimer.toNanos() + " ns";
            throw new IllegalArgumentException("pacing timer " + v + " is out of range; "
                    + "allowed: 0 (a wake-up per message).." + TransferSpec.MAX_PACING_TIMER.toNanos() + " ns (10 ms)");
        }
        if (spec.fullLog().isPresent() && protocol != Protocol.UDP) {
            throw new IllegalArgumentException("a full log applies to UDP only: its entries are sequence-numbered "
                    + "datagrams, and " + protocol.label() + " has none");
        }
        if (protocol != Protocol.TCP && spec.noDelay()) {
            throw new IllegalArgumentException("TCP_NODELAY applies to TCP only, not " + protocol.label());
        }
        return checkIo(spec);
    }

    private static TransferSpec checkIo(TransferSpec spec) {
        StreamIo io = spec.io();
        Protocol protocol = spec.protocol();
        if (protocol != Protocol.UDP && (io.gso() || io.batch() != 0)) {
            throw new IllegalArgumentException((io.gso() ? "gso" : "batch " + io.batch()) + " applies to UDP only, not "
                    + protocol.label() + ": it batches or segments datagrams");
        }
        if (protocol != Protocol.TCP && (io.zeroCopySend() || io.skipReceiveCopy())) {
            throw new IllegalArgumentException((io.zeroCopySend() ? "zerocopy (sendfile)" : "skip-rx-copy (MSG_TRUNC)")
                    + " applies to TCP only, not " + protocol.label());
        }
        return spec;
    }
}
