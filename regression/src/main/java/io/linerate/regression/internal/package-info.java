/**
 * Internals of the gate, not API: readers of other tools' formats (iperf3 JSON, Zephyr twister,
 * KTAP logs), statistics (Mann-Whitney, bootstrap), policy parsing, number formatting and the SVG chart.
 */
package io.linerate.regression.internal;
