/**
 * Internals of the NIO transport, not API: TCP and UDP endpoints, socket buffer read-back and the
 * bounded selector waits.
 */
package io.linerate.nio.internal;
