/**
 * The native socket transport, {@code native}: TCP sockets on plain Linux descriptors through JNI
 * ({@link io.linerate.socket.NativeSocket}, built on the shared native layer {@code io.linerate.jni}),
 * the kernel's {@code TCP_INFO} ({@link io.linerate.socket.TcpInfo}, read without allocation by
 * {@link io.linerate.socket.TcpInfoReader}) and the transport that runs TCP streams on core's engine
 * ({@link io.linerate.socket.NativeTransport}) with the MSS read at both ends.
 */
package io.linerate.socket;
