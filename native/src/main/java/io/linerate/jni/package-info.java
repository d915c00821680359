/**
 * The shared native layer linerate's transports build on (JNI, Linux x86-64). Each module that has
 * C code keeps its own library and loads it through {@link io.linerate.jni.NativeLibrary} (packed
 * in its jar, else from {@code java.library.path}); its C functions include
 * {@code linerate_jni.h} and return a non-negative result or {@code -errno}, which
 * {@link io.linerate.jni.Errno} names; {@link io.linerate.jni.LayoutCheck} compares the struct
 * sizes and offsets its Java code uses with those compiled from the kernel's headers.
 * {@link io.linerate.jni.PerfEventCounters} gives every measurement per-thread CPU counts through
 * {@code perf_event_open(2)}, and {@link io.linerate.jni.SockDiagTcpInfo} any TCP connection's
 * {@code tcp_info} through {@code sock_diag} netlink, both found by core through
 * {@link java.util.ServiceLoader}.
 */
package io.linerate.jni;
