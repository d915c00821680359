/**
 * Live counters that another process can read while a transfer runs, as Aeron's are.
 *
 * <p>Every running transfer publishes its counters (bytes sent and received, messages, loss, the
 * last interval's rate) through an Agrona {@link org.agrona.concurrent.status.CountersManager}
 * in a memory-mapped file, one file per process, {@code linerate-<pid>.counters} under
 * {@link io.linerate.core.live.LiveCounters#defaultDirectory()}. {@code linerate stat} reads them
 * from another process through {@link io.linerate.core.live.CountersFileReader}, with a
 * read-only mapping, so the measuring threads never see the reader. The layout is in
 * {@link io.linerate.core.live.CountersLayout}.
 *
 * <p>The file exists while the process has a transfer running (or holds it through
 * {@link io.linerate.core.live.LiveCounters#hold()}) and is removed on every path: when the last
 * transfer ends, normally or by an exception, and by a shutdown hook on SIGTERM and SIGINT. A
 * file left behind by a process killed with SIGKILL is found stale and removed by the next process
 * that creates a counters file, and by {@code linerate stat}
 * ({@link io.linerate.core.live.StaleCounterFiles}).
 */
package io.linerate.core.live;
