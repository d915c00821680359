package io.linerate.peers.iperf2;

import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * One test linerate's iperf 2 server ran, as it counted it.
 *
 * @param client the client's address and port
 * @param udp whether it was UDP
 * @param header UDP: the datagram layout seen; empty for TCP
 * @param tcpFlags TCP: the client header's flags word (the stream's first 4 bytes; 0 when the client sent none); UDP: 0
 * @param bytes payload bytes received (UDP: the final datagram included)
 * @param report UDP: the report sent back; empty for TCP or a test that ended without a final datagram
 * @param end how it ended: "done", or why it was cut short
 */
public record Iperf2ServedTest(InetSocketAddress client, boolean udp, Optional<Iperf2HeaderVariant> header, int tcpFlags,
                               long bytes, Optional<Iperf2ServerReport> report, String end) {}
