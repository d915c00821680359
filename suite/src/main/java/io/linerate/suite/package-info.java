/**
 * zperf's loopback suite ({@link io.linerate.suite.LoopbackSuite}) and its zero-loss search
 * ({@link io.linerate.suite.LoopbackZeroLoss}), run on any {@link io.linerate.core.spi.Transport}.
 */
package io.linerate.suite;
