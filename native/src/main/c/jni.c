/*
 * linerate native: the JNI functions of io.linerate.jni.internal.Jni, which every part of the
 * shared native layer uses. Each returns a non-negative result or -errno (linerate_jni.h).
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "linerate_jni.h"
#include "io_linerate_jni_internal_Jni.h"

LINERATE_EXPORT JNIEXPORT jstring JNICALL Java_io_linerate_jni_internal_Jni_strerror(JNIEnv *env, jclass cls, jint err) {
    (void)cls;
    char buf[256];
    /* GNU strerror_r returns a pointer that may or may not be buf. */
    const char *s = strerror_r(err, buf, sizeof buf);
    return (*env)->NewStringUTF(env, s);
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_jni_internal_Jni_close(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    return close(fd) < 0 ? linerate_neg_errno() : 0;
}
