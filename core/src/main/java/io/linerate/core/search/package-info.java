/**
 * RFC 2544's throughput test (section 26.1), searched by bisection as TRex's NDR/PDR search does:
 * the highest offered rate at which a trial loses no more than a tolerance of what it sent.
 * {@link io.linerate.core.search.RateSearch} runs the search over any {@link
 * io.linerate.core.search.Trial}; {@link io.linerate.core.search.UdpStreamTrial} is the trial of a
 * UDP stream through any transport that runs one.
 */
package io.linerate.core.search;
