/**
 * The {@code linerate} command line (picocli): one command per measurement, the gate and the chart.
 * It parses options, calls the library and prints; logic a library user needs lives in the library
 * modules, not here.
 */
package io.linerate.examples.cli;
