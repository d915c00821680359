/**
 * What the peers share, not API: the TCP and UDP ports of one number with their accept loop that
 * the iperf3 and iperf 2 servers listen on, the servers' interval lines, keepalive probes on
 * iperf3's silent control connection, the client's interval ticks, the peer result's detail JSON,
 * and the transport their ends run on today.
 */
package io.linerate.peers.internal;
