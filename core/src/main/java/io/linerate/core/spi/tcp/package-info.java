/**
 * The kernel's {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) of a TCP connection named by
 * its addresses, from a {@link io.linerate.core.spi.tcp.TcpInfoSource} found by
 * {@link java.util.ServiceLoader}, so that a transport without native code (NIO) can report
 * retransmits, the congestion window and the RTT where a module with native code provides a source.
 */
package io.linerate.core.spi.tcp;
