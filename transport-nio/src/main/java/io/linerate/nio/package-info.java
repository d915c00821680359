/**
 * TCP and UDP transfers over Java NIO with both ends in one JVM: the {@code nio}
 * {@link io.linerate.core.spi.Transport}, zperf's loopback suite, and network namespaces for tests
 * that need a host of their own.
 */
package io.linerate.nio;
