/*
 * Per-thread CPU event counters through perf_event_open(2), for linerate's cost figures
 * (io.linerate.jni.PerfEventCounters). Each function returns a non-negative result or -errno
 * (linerate_jni.h).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "linerate_jni.h"
#include "io_linerate_jni_internal_Perf.h"

/* Opens a counter of (type, config) on the calling thread (pid 0, any CPU), counting user and
 * kernel work from now, not the hypervisor's. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_jni_internal_Perf_open(JNIEnv *env, jclass cls, jint type, jlong config) {
    (void)env;
    (void)cls;
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = (uint32_t)type;
    attr.config = (uint64_t)config;
    attr.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    return (jint)fd;
}

/* Reads the counter's 64-bit value (read_format 0). */
LINERATE_EXPORT JNIEXPORT jlong JNICALL Java_io_linerate_jni_internal_Perf_read(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    uint64_t value = 0;
    ssize_t n = read(fd, &value, sizeof value);
    if (n != (ssize_t)sizeof value) {
        return n < 0 ? linerate_neg_errno() : -EIO;
    }
    return (jlong)(value & INT64_MAX);
}
