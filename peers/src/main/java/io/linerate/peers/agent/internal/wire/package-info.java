/**
 * The agent's wire format, which its server and client share, not API: the control connection
 * (length-prefixed JSON messages, {@link io.linerate.peers.agent.internal.wire.Control}), the beats
 * on it, the specs and ends' counts as JSON, HMAC-SHA256 challenge and response for a shared secret,
 * the clock comparison of the two hosts, and a session's parallel streams with their {@code go}.
 */
package io.linerate.peers.agent.internal.wire;
