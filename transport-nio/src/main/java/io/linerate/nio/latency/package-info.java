/**
 * Latency over NIO: ping-pong (half round-trip time per message size, as sfnt-pingpong and sockperf
 * measure it) and request/response transactions (netperf TCP_RR and TCP_CRR), with their specs and results.
 */
package io.linerate.nio.latency;
