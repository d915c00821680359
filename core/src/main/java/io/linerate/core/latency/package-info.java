/**
 * Latency statistics for ping-pong and request/response: HdrHistogram-backed per-size statistics of
 * half round-trip (or round-trip) time in ns, the iteration policy that decides how long each size
 * runs, and the reports and run facts that the sfnt-pingpong table, ktap lines and JSON are written from.
 */
package io.linerate.core.latency;
