/**
 * The full log: every datagram's, frame's or round trip's sequence number, size, phase, send time
 * and receive time written to a file, as sockperf's {@code --full-log} does, without slowing the
 * thread that measures.
 *
 * <p>The measuring (hot) thread fills preallocated records, each a chunk of entries in a
 * {@code long[]}, and hands a full one to a writer thread through a JCTools single-producer,
 * single-consumer queue; a second such queue brings the emptied records back. The hot thread
 * never blocks, allocates or does I/O: when the writer has fallen behind and no empty record is
 * free, entries are dropped and counted. {@link io.linerate.core.fulllog.FullLog} is the handle,
 * {@link io.linerate.core.fulllog.FullLogSummary} what it reports; the file format is described
 * on {@link io.linerate.core.fulllog.FullLog}.
 */
package io.linerate.core.fulllog;
