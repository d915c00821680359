/**
 * Internals of the shared native layer, not API: the JNI bindings of {@code liblinerate-native.so}
 * (the C library's error texts, {@code close(2)}, {@code perf_event_open(2)} counters, a TCP
 * connection's {@code tcp_info} through {@code sock_diag} netlink).
 */
package io.linerate.jni.internal;
