/**
 * Internals of the latency patterns, not API: the ping-pong runner and echo server, request/response
 * flows and server, waiting modes and the watchdog that bounds every wait.
 */
package io.linerate.nio.latency.internal;
