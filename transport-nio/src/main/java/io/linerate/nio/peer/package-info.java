/**
 * What linerate's servers for unmodified peer tools (iperf3, iperf 2) share: the client addresses
 * served ({@link io.linerate.nio.peer.AllowFrom}), the checked server settings
 * ({@link io.linerate.nio.peer.PeerServerConfig}) and the TCP and UDP ports of one number with
 * their accept loop ({@link io.linerate.nio.peer.SamePortListener}).
 */
package io.linerate.nio.peer;
