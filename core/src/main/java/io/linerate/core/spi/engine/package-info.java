/**
 * The stream measurement engine that transports drive: a sender and a receiver context per
 * transfer, counter readings stamped right after the counters were read, interval samples, the
 * warm-up boundary and the measured window. Transports supply the I/O; the engine does the counting.
 */
package io.linerate.core.spi.engine;
