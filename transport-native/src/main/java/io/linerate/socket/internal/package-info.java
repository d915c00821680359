/**
 * The native socket transport's internals: the JNI functions of {@code liblinerate-socket.so}
 * (loaded through {@code io.linerate.jni.NativeLibrary}), the {@code tcp_info} layout and its check,
 * and the stream transfer that runs on core's engine. Not API.
 */
package io.linerate.socket.internal;
