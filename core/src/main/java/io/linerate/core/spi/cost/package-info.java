/**
 * What a measurement costs the host: per-thread event counts (instructions retired, task clock)
 * from a {@link io.linerate.core.spi.cost.CpuCounterProvider} found by {@link java.util.ServiceLoader},
 * so that core stays pure Java and the native counting lives in a module that has native code.
 */
package io.linerate.core.spi.cost;
