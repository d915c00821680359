/**
 * What the peers share, not API: the client's interval ticks, the peer result's detail JSON, and
 * the transport their ends run on today.
 */
package io.linerate.peers.internal;
