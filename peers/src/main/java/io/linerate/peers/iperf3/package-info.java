/**
 * iperf3's protocol: a client of an unmodified {@code iperf3 -s} ({@link io.linerate.peers.iperf3.Iperf3Client},
 * {@link io.linerate.peers.iperf3.Iperf3Stream}) and a server that unmodified iperf3 clients run against
 * ({@link io.linerate.peers.iperf3.Iperf3Agent}, {@code linerate serve --iperf3}).
 */
package io.linerate.peers.iperf3;
