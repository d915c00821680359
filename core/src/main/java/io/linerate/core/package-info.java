/**
 * linerate's API: what to measure ({@link io.linerate.core.TransferSpec}, {@link io.linerate.core.Endpoint},
 * {@link io.linerate.core.Bound}), how it is moved ({@link io.linerate.core.spi.Transport}, found by
 * {@link io.linerate.core.Transports} through {@link java.util.ServiceLoader}), what both ends counted
 * ({@link io.linerate.core.TransferResult}, {@link io.linerate.core.UdpStats}), the time source
 * ({@link io.linerate.core.Clock}), metrics ({@link io.linerate.core.Metric}, {@link io.linerate.core.MetricSink}),
 * and the accounting every transport shares: datagram headers, sequence tracking (loss, reordering,
 * duplicates), RFC 3550 jitter, pacing and rates.
 */
package io.linerate.core;
