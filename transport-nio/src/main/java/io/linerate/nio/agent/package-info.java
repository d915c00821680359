/**
 * The peer agent ({@code linerate serve}) and its client: one end of a stream, a ping-pong, a
 * request/response or a raw-frame run ({@link io.linerate.nio.agent.RemoteRaw}) runs on a peer host
 * (or network namespace), the other in this JVM. A TCP control connection carries length-prefixed
 * JSON messages, authenticated by HMAC-SHA256 challenge and response when a shared secret is in use.
 */
package io.linerate.nio.agent;
