/**
 * What linerate's servers for unmodified peer tools (iperf3, iperf 2) share: the client addresses
 * served ({@link io.linerate.nio.peer.AllowFrom}) and the checked server
 * settings ({@link io.linerate.nio.peer.PeerServerConfig}).
 */
package io.linerate.nio.peer;
