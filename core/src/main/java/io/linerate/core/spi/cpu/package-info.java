/**
 * Which CPUs a thread may run on: a {@link io.linerate.core.spi.cpu.ThreadAffinityProvider} found by
 * {@link java.util.ServiceLoader} sets and reads the calling thread's CPU set, so that core stays
 * pure Java and the system call lives in a module that has native code; {@link
 * io.linerate.core.spi.cpu.ThreadAffinity} pins a thread for a run and reads the set back from the
 * kernel's own account of the thread.
 */
package io.linerate.core.spi.cpu;
