/**
 * iperf 2's protocol: a client of an unmodified {@code iperf -s} ({@link io.linerate.peers.iperf2.Iperf2Client},
 * {@link io.linerate.peers.iperf2.Iperf2Stream}) and a server that unmodified iperf 2 clients run against
 * ({@link io.linerate.peers.iperf2.Iperf2Agent}, {@code linerate serve --iperf2}).
 */
package io.linerate.peers.iperf2;
