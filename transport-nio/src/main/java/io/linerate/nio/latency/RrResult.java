package io.linerate.nio.latency;

import io.linerate.core.latency.RrReport;

/**
 * What a request/response run measured.
 *
 * @param report rates and latency over the measured window, with their output formats
 * @param completed transactions completed over the whole run (warm-up and the tail after the
 *     window included), counted by the flows
 * @param accepts connections the server accepted over the whole run
 * @param served responses the server sent over the whole run
 */
public record RrResult(RrReport report, long completed, long accepts, long served) {}
