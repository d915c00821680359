/*
 * linerate's shared native layer: what every linerate JNI library's C code includes.
 *
 * The convention: a JNI function takes primitives and direct-buffer addresses and returns a
 * non-negative result or -errno (errno(3), the values of <asm-generic/errno-base.h> and
 * <asm-generic/errno.h>); the Java side (io.linerate.jni.Errno) names the error and turns it into
 * an exception that names the call. Nothing here allocates, logs or keeps state.
 */
#ifndef LINERATE_JNI_H
#define LINERATE_JNI_H

#include <errno.h>
#include <jni.h>
#include <stdint.h>
#include <string.h>

/* Exports a JNI function from a library built with -fvisibility=hidden. */
#define LINERATE_EXPORT __attribute__((visibility("default")))

/* A jlong address from Java (a direct buffer's, a mapping's) as a C pointer. */
#define LINERATE_PTR(a) ((void *)(uintptr_t)(a))

/* The -errno of the call that just failed; -EIO when it failed without setting errno. */
static inline jint linerate_neg_errno(void) {
    return errno > 0 ? -errno : -EIO;
}

/*
 * The native half of a layout check (io.linerate.jni.LayoutCheck): copies the n sizes and
 * offsets in values, compiled from the build host's headers with sizeof and offsetof, as 32-bit
 * ints to out, in the order the Java side lists its fields.
 * Returns n, or -ENOSPC when capacity ints do not hold them (nothing is written then).
 */
static inline jint linerate_layout_write(jlong out, jint capacity, const jint *values, jint n) {
    if (capacity < n) {
        return -ENOSPC;
    }
    memcpy(LINERATE_PTR(out), values, (size_t)n * sizeof values[0]);
    return n;
}

/* The number of elements of an array, for linerate_layout_write's n. */
#define LINERATE_COUNT(a) ((jint)(sizeof(a) / sizeof((a)[0])))

#endif
