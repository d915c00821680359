/**
 * The NIO ends other modules' peers run on: one end of a TCP or UDP stream with a peer on another
 * host ({@link io.linerate.nio.spi.PeerChannel}), the ping-pong runner and echo server, the
 * request/response flows and server, socket options ({@link io.linerate.nio.spi.Sockets}) and the
 * once-only life of a measurement ({@link io.linerate.nio.spi.RunOnce}). The in-JVM latency patterns
 * of {@link io.linerate.nio.latency} run on the same ends.
 */
package io.linerate.nio.spi;
