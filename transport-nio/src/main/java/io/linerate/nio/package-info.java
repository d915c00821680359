/**
 * TCP and UDP transfers over Java NIO with both ends in one JVM: the {@code nio}
 * {@link io.linerate.core.spi.Transport}, and the path facts (MTU, TCP timestamps, MSS) it reports.
 */
package io.linerate.nio;
