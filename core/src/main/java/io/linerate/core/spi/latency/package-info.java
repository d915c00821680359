/**
 * The ping-pong engine that transports drive: the sweep over message sizes ({@link
 * io.linerate.core.spi.latency.PingPongSweep}: warm-up, iteration floors and caps, histograms, the
 * full log, live progress, stale datagram answers), the echo server ({@link
 * io.linerate.core.spi.latency.EchoServer}) and the one-end contract both run on ({@link
 * io.linerate.core.spi.latency.MessageEnd}); and request/response's coordinator ({@link
 * io.linerate.core.spi.latency.RrFlows}) with its flow loop ({@link io.linerate.core.spi.latency.RrFlowLoop}) and
 * open-loop schedule. Transports supply the ends and the socket work; the engine does the timing.
 */
package io.linerate.core.spi.latency;
