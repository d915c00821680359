package io.linerate.jni.internal;

import io.linerate.jni.NativeLibrary;
import java.lang.invoke.MethodHandles;

/**
 * The JNI functions of {@code src/main/c/jni.c} and the library that holds them and those of
 * {@link Perf}, {@code liblinerate-native.so}. Each returns a non-negative result or -errno. Load
 * the library with {@code LIBRARY.ensureLoaded()} before the first call.
 */
public final class Jni {
    /** {@code liblinerate-native.so}. */
    public static final NativeLibrary LIBRARY =
            NativeLibrary.of("linerate-native", "perf_event_open exists only on Linux", MethodHandles.lookup());

    private Jni() {}

    /** @return the C library's text for a positive errno ({@code strerror_r(3)}, GNU) */
    public static native String strerror(int errno);

    /** close(2): 0 or -errno. */
    public static native int close(int fd);
}
