/*
 * The calling thread's CPU set through sched_setaffinity(2) and sched_getaffinity(2), for
 * linerate's thread pinning (io.linerate.jni.SchedAffinity). A set travels as 64-bit words, CPU n
 * at bit n % 64 of word n / 64. Each function returns a non-negative result or -errno
 * (linerate_jni.h).
 */
#define _GNU_SOURCE
#include <sched.h>

#include "linerate_jni.h"
#include "io_linerate_jni_internal_Affinity.h"

#define WORDS (CPU_SETSIZE / 64)

/* Sets the calling thread's CPU set (pid 0) to the CPUs of mask. Returns 0 or -errno; -EINVAL
 * also when mask holds more words than CPU_SETSIZE allows. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_jni_internal_Affinity_set(JNIEnv *env, jclass cls, jlongArray mask) {
    (void)cls;
    jsize n = (*env)->GetArrayLength(env, mask);
    if (n > WORDS) {
        return -EINVAL;
    }
    jlong words[WORDS];
    (*env)->GetLongArrayRegion(env, mask, 0, n, words);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (jsize w = 0; w < n; w++) {
        for (int b = 0; b < 64; b++) {
            if (((uint64_t)words[w] >> b) & 1u) {
                CPU_SET((size_t)w * 64 + (size_t)b, &set);
            }
        }
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        return linerate_neg_errno();
    }
    return 0;
}

/* Writes the calling thread's CPU set to out, which holds CPU_SETSIZE / 64 words or more. Returns
 * the number of words written, or -errno; -ENOSPC when out is too short. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_jni_internal_Affinity_get(JNIEnv *env, jclass cls, jlongArray out) {
    (void)cls;
    if ((*env)->GetArrayLength(env, out) < WORDS) {
        return -ENOSPC;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return linerate_neg_errno();
    }
    jlong words[WORDS];
    memset(words, 0, sizeof words);
    for (size_t cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set)) {
            words[cpu / 64] = (jlong)((uint64_t)words[cpu / 64] | ((uint64_t)1 << (cpu % 64)));
        }
    }
    (*env)->SetLongArrayRegion(env, out, 0, WORDS, words);
    return WORDS;
}
