/**
 * What linerate's servers for unmodified peer tools (iperf3, iperf 2) share: the client addresses
 * served ({@link io.linerate.peers.server.AllowFrom}) and the checked server settings
 * ({@link io.linerate.peers.server.PeerServerConfig}); and what all three linerate servers (the
 * agent, iperf3's, iperf 2's) share: one shape ({@link io.linerate.peers.server.PeerServer}),
 * started from one base of settings, and what each reports of the tests it serves
 * ({@link io.linerate.peers.server.ServedTestListener}).
 */
package io.linerate.peers.server;
