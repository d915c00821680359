/*
 * linerate transport-native: the JNI functions of io.linerate.socket.internal.Sockets, on plain
 * socket descriptors. Every function takes primitives and direct-buffer addresses and returns a
 * non-negative result or -errno (linerate_jni.h). Sockets are opened non-blocking; every wait is
 * a poll(2) with the caller's timeout, and a wait that runs out returns -EAGAIN (send, recv) or
 * -ETIMEDOUT (accept, connect). A ping-pong end's socket is made blocking with a send and receive
 * timeout instead (blockWithTimeout), and waits inside recvBlocking; its calls can stamp the time
 * right around themselves (sendStamped, recvBlockingStamped), and an echo end answers in one call
 * (echoBlocking). Nothing here allocates.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <linux/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "linerate_jni.h"
#include "io_linerate_socket_internal_Sockets.h"

/* Fills a sockaddr of the family (4 = IPv4, 6 = IPv6) from the 4 or 16 address bytes at addr. */
static socklen_t fill_addr(struct sockaddr_storage *ss, jint family, jlong addr, jint port) {
    memset(ss, 0, sizeof *ss);
    if (family == 6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        memcpy(&a->sin6_addr, LINERATE_PTR(addr), 16);
        return sizeof *a;
    }
    struct sockaddr_in *a = (struct sockaddr_in *)ss;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    memcpy(&a->sin_addr, LINERATE_PTR(addr), 4);
    return sizeof *a;
}

/* poll(2) for one event; 1 when ready, 0 when timeoutMs ran out, -errno otherwise. */
static int wait_for(int fd, short events, int timeout_ms) {
    struct pollfd p = {.fd = fd, .events = events, .revents = 0};
    int r;
    do {
        r = poll(&p, 1, timeout_ms);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? linerate_neg_errno() : r;
}

LINERATE_EXPORT JNIEXPORT jlong JNICALL Java_io_linerate_socket_internal_Sockets_address(JNIEnv *env, jclass cls, jobject buf) {
    (void)cls;
    return (jlong)(uintptr_t)(*env)->GetDirectBufferAddress(env, buf);
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_tcpSocket(JNIEnv *env, jclass cls, jint family) {
    (void)env;
    (void)cls;
    int fd = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
    return fd < 0 ? linerate_neg_errno() : fd;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_udpSocket(JNIEnv *env, jclass cls, jint family) {
    (void)env;
    (void)cls;
    int fd = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
    return fd < 0 ? linerate_neg_errno() : fd;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_bind(JNIEnv *env, jclass cls, jint fd,
        jint family, jlong addr, jint port) {
    (void)env;
    (void)cls;
    struct sockaddr_storage ss;
    socklen_t len = fill_addr(&ss, family, addr, port);
    return bind(fd, (struct sockaddr *)&ss, len) < 0 ? linerate_neg_errno() : 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_bindListen(JNIEnv *env, jclass cls, jint fd,
        jint family, jlong addr, jint port, jint backlog) {
    (void)env;
    (void)cls;
    struct sockaddr_storage ss;
    socklen_t len = fill_addr(&ss, family, addr, port);
    if (bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, backlog) < 0) {
        return linerate_neg_errno();
    }
    return 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_localPort(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0) {
        return linerate_neg_errno();
    }
    return ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                    : ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_peerAddress(JNIEnv *env, jclass cls, jint fd,
        jlong out) {
    (void)env;
    (void)cls;
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getpeername(fd, (struct sockaddr *)&ss, &len) < 0) {
        return linerate_neg_errno();
    }
    if (ss.ss_family == AF_INET6) {
        memcpy(LINERATE_PTR(out), &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
        return 6;
    }
    memcpy(LINERATE_PTR(out), &((struct sockaddr_in *)&ss)->sin_addr, 4);
    return 4;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_accept(JNIEnv *env, jclass cls, jint fd, jint timeoutMs) {
    (void)env;
    (void)cls;
    for (;;) {
        int c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (c >= 0) {
            return c;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return linerate_neg_errno();
        }
        int r = wait_for(fd, POLLIN, timeoutMs);
        if (r <= 0) {
            return r == 0 ? -ETIMEDOUT : r;
        }
    }
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_connect(JNIEnv *env, jclass cls, jint fd,
        jint family, jlong addr, jint port, jint timeoutMs) {
    (void)env;
    (void)cls;
    struct sockaddr_storage ss;
    socklen_t len = fill_addr(&ss, family, addr, port);
    if (connect(fd, (struct sockaddr *)&ss, len) == 0) {
        return 0;
    }
    if (errno != EINPROGRESS) {
        return linerate_neg_errno();
    }
    int r = wait_for(fd, POLLOUT, timeoutMs);
    if (r <= 0) {
        return r == 0 ? -ETIMEDOUT : r;
    }
    int err = 0;
    socklen_t el = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0) {
        return linerate_neg_errno();
    }
    return err == 0 ? 0 : -err;
}

/* sendto(2) without blocking, waiting for room in poll slices of timeoutMs: bytes sent, -EAGAIN when
 * there was none within the wait, or -errno. A NULL sa sends on a connected socket, as send(2) does. */
static jint send_bounded(jint fd, jlong addr, jint len, const struct sockaddr *sa, socklen_t sl, jint timeoutMs) {
    for (;;) {
        ssize_t n = sendto(fd, LINERATE_PTR(addr), (size_t)len, MSG_DONTWAIT | MSG_NOSIGNAL, sa, sl);
        if (n >= 0) {
            return (jint)n;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return linerate_neg_errno();
        }
        int r = wait_for(fd, POLLOUT, timeoutMs);
        if (r <= 0) {
            return r == 0 ? -EAGAIN : r;
        }
    }
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_send(JNIEnv *env, jclass cls, jint fd,
        jlong addr, jint len, jint timeoutMs) {
    (void)env;
    (void)cls;
    return send_bounded(fd, addr, len, NULL, 0, timeoutMs);
}

/* Writes CLOCK_MONOTONIC in ns to the 8 bytes at stamp: the clock System.nanoTime() reads on Linux. */
static void stamp_now(jlong stamp) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    *(jlong *)LINERATE_PTR(stamp) = (jlong)t.tv_sec * 1000000000L + t.tv_nsec;
}

/* send, or with family 4 or 6 sendTo, after stamping the time at stamp (stamp_now). */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_sendStamped(JNIEnv *env, jclass cls,
        jint fd, jint family, jlong peer, jint port, jlong addr, jint len, jint timeoutMs, jlong stamp) {
    (void)env;
    (void)cls;
    struct sockaddr_storage ss;
    socklen_t sl = family == 0 ? 0 : fill_addr(&ss, family, peer, port);
    stamp_now(stamp);
    return send_bounded(fd, addr, len, family == 0 ? NULL : (struct sockaddr *)&ss, sl, timeoutMs);
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_recv(JNIEnv *env, jclass cls, jint fd,
        jlong addr, jint len, jint timeoutMs) {
    (void)env;
    (void)cls;
    for (;;) {
        ssize_t n = recv(fd, LINERATE_PTR(addr), (size_t)len, MSG_DONTWAIT);
        if (n >= 0) {
            return (jint)n;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return linerate_neg_errno();
        }
        int r = wait_for(fd, POLLIN, timeoutMs);
        if (r <= 0) {
            return r == 0 ? -EAGAIN : r;
        }
    }
}

/* recv(2) with MSG_TRUNC on a TCP socket: the kernel drops up to len bytes of the stream instead of
 * copying them (tcp(7)), so no buffer is given. Bytes dropped (0 at the end of the stream), -EAGAIN
 * when nothing came within the wait, or -errno. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_recvTruncated(JNIEnv *env, jclass cls,
        jint fd, jint len, jint timeoutMs) {
    (void)env;
    (void)cls;
    for (;;) {
        ssize_t n = recv(fd, NULL, (size_t)len, MSG_DONTWAIT | MSG_TRUNC);
        if (n >= 0) {
            return (jint)n;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return linerate_neg_errno();
        }
        int r = wait_for(fd, POLLIN, timeoutMs);
        if (r <= 0) {
            return r == 0 ? -EAGAIN : r;
        }
    }
}

/* A memfd_create(2) file named "linerate-payload" holding the len bytes at addr, for sendfile(2):
 * its descriptor (close-on-exec), or -errno; nothing is left open on an error. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_payloadFile(JNIEnv *env, jclass cls,
        jlong addr, jint len) {
    (void)env;
    (void)cls;
    int fd = memfd_create("linerate-payload", MFD_CLOEXEC);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    const char *p = LINERATE_PTR(addr);
    size_t left = (size_t)len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            int e = w < 0 ? linerate_neg_errno() : -EIO;
            close(fd);
            return e;
        }
        p += w;
        left -= (size_t)w;
    }
    return fd;
}

/* sendfile(2) of up to count bytes of in_fd from offset to the socket fd, waiting for room in poll
 * slices of timeoutMs as send does; in_fd's own file offset is left alone. Bytes sent, -EAGAIN
 * when there was no room within the wait, or -errno. sendfile(2) takes no MSG_NOSIGNAL: a peer
 * gone raises SIGPIPE, which the JVM ignores, so the call returns -EPIPE. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_sendFile(JNIEnv *env, jclass cls,
        jint fd, jint inFd, jlong offset, jint count, jint timeoutMs) {
    (void)env;
    (void)cls;
    for (;;) {
        off_t off = (off_t)offset;
        ssize_t n = sendfile(fd, inFd, &off, (size_t)count);
        if (n >= 0) {
            return (jint)n;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return linerate_neg_errno();
        }
        int r = wait_for(fd, POLLOUT, timeoutMs);
        if (r <= 0) {
            return r == 0 ? -EAGAIN : r;
        }
    }
}

/* --- batches of UDP datagrams: sendmmsg(2), recvmmsg(2) and the UDP_GRO control message --- */

/* The most messages one batch call moves: UIO_MAXIOV, as sendmmsg(2) takes at most. */
#define LINERATE_MMSG_MAX 1024

/* sendmmsg(2) of count messages without blocking, waiting for room in poll slices of timeoutMs:
 * message i is the lens[i] bytes at base + i * slotBytes (lens: count native ints). Returns the
 * messages the kernel accepted (1..count), -EAGAIN when there was no room within the wait, or -errno. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_sendBatch(JNIEnv *env, jclass cls, jint fd,
        jlong base, jint slotBytes, jlong lens, jint count, jint timeoutMs) {
    (void)env;
    (void)cls;
    if (count < 1 || count > LINERATE_MMSG_MAX || slotBytes < 1) {
        return -EINVAL;
    }
    struct mmsghdr msgs[count];
    struct iovec iov[count];
    const jint *len = (const jint *)LINERATE_PTR(lens);
    char *at = (char *)LINERATE_PTR(base);
    memset(msgs, 0, sizeof msgs);
    for (jint i = 0; i < count; i++) {
        iov[i].iov_base = at + (size_t)i * (size_t)slotBytes;
        iov[i].iov_len = (size_t)len[i];
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    for (;;) {
        int n = sendmmsg(fd, msgs, (unsigned int)count, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n >= 0) {
            return (jint)n;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return linerate_neg_errno();
        }
        int r = wait_for(fd, POLLOUT, timeoutMs);
        if (r <= 0) {
            return r == 0 ? -EAGAIN : r;
        }
    }
}

/* recvmmsg(2) of up to count messages without blocking, waiting for data in poll slices of
 * timeoutMs: message i lands at base + i * slotBytes (slotBytes each), its length goes to lens[i]
 * and the segment size of its UDP_GRO control message to gsoSizes[i], 0 when it has none (one
 * datagram, not coalesced); lens and gsoSizes hold count native ints. A message cut to its slot
 * (MSG_TRUNC) reports -1 as its segment size. Returns the messages received (1..count), -EAGAIN
 * when none came within the wait, or -errno. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_recvBatch(JNIEnv *env, jclass cls, jint fd,
        jlong base, jint slotBytes, jint count, jlong lens, jlong gsoSizes, jint timeoutMs) {
    (void)env;
    (void)cls;
    if (count < 1 || count > LINERATE_MMSG_MAX || slotBytes < 1) {
        return -EINVAL;
    }
    union control {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    };
    struct mmsghdr msgs[count];
    struct iovec iov[count];
    union control ctl[count];
    char *at = (char *)LINERATE_PTR(base);
    jint *len = (jint *)LINERATE_PTR(lens);
    jint *gso = (jint *)LINERATE_PTR(gsoSizes);
    memset(msgs, 0, sizeof msgs);
    for (jint i = 0; i < count; i++) {
        iov[i].iov_base = at + (size_t)i * (size_t)slotBytes;
        iov[i].iov_len = (size_t)slotBytes;
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
        msgs[i].msg_hdr.msg_control = ctl[i].buf;
        msgs[i].msg_hdr.msg_controllen = sizeof ctl[i].buf;
    }
    int n;
    for (;;) {
        n = recvmmsg(fd, msgs, (unsigned int)count, MSG_DONTWAIT, NULL);
        if (n >= 0) {
            break;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return linerate_neg_errno();
        }
        int r = wait_for(fd, POLLIN, timeoutMs);
        if (r <= 0) {
            return r == 0 ? -EAGAIN : r;
        }
    }
    for (int i = 0; i < n; i++) {
        struct msghdr *h = &msgs[i].msg_hdr;
        int size = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c != NULL; c = CMSG_NXTHDR(h, c)) {
            if (c->cmsg_level == IPPROTO_UDP && c->cmsg_type == UDP_GRO && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
                memcpy(&size, CMSG_DATA(c), sizeof size);
            }
        }
        len[i] = (jint)msgs[i].msg_len;
        gso[i] = (h->msg_flags & MSG_TRUNC) ? -1 : size;
    }
    return (jint)n;
}

/* Makes fd blocking, each send or receive waiting at most timeoutMs (SO_SNDTIMEO, SO_RCVTIMEO,
 * socket(7)): a message end then waits inside recv(2) itself, one system call per message as a
 * blocking socket makes, instead of a try, a poll(2) and a second try. 0, or -errno. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_blockWithTimeout(JNIEnv *env, jclass cls,
        jint fd, jint timeoutMs) {
    (void)env;
    (void)cls;
    struct timeval tv = {.tv_sec = timeoutMs / 1000, .tv_usec = (timeoutMs % 1000) * 1000};
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0
            || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0
            || setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) < 0
            || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        return linerate_neg_errno();
    }
    return 0;
}

/* A call's return on a socket made blocking by blockWithTimeout, as Java takes it: the count (0 at
 * a stream's end), -EAGAIN when its SO_RCVTIMEO or SO_SNDTIMEO ran out before any byte moved,
 * LINERATE_AGAIN when a signal interrupted it (make it again), -errno otherwise. A send cut short
 * by its timeout part-way returns the bytes it moved. */
#define LINERATE_AGAIN INT32_MIN
static jint blocking_outcome(ssize_t n) {
    if (n >= 0) {
        return (jint)n;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        return -EAGAIN;
    }
    return errno == EINTR ? LINERATE_AGAIN : linerate_neg_errno();
}

/* One recv(2) with flags on a socket of blockWithTimeout (blocking_outcome). */
static jint recv_blocking(int fd, void *buf, size_t len, int flags) {
    jint r;
    do {
        r = blocking_outcome(recv(fd, buf, len, flags));
    } while (r == LINERATE_AGAIN);
    return r;
}

/* One send(2) of len bytes at addr on a socket of blockWithTimeout (blocking_outcome). */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_sendBlocking(JNIEnv *env, jclass cls,
        jint fd, jlong addr, jint len) {
    (void)env;
    (void)cls;
    jint r;
    do {
        r = blocking_outcome(send(fd, LINERATE_PTR(addr), (size_t)len, MSG_NOSIGNAL));
    } while (r == LINERATE_AGAIN);
    return r;
}

/* One sendfile(2) of up to count bytes of inFd from offset on a socket of blockWithTimeout
 * (blocking_outcome); inFd's own file offset is left alone. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_sendFileBlocking(JNIEnv *env,
        jclass cls, jint fd, jint inFd, jlong offset, jint count) {
    (void)env;
    (void)cls;
    jint r;
    do {
        off_t off = (off_t)offset;
        r = blocking_outcome(sendfile(fd, inFd, &off, (size_t)count));
    } while (r == LINERATE_AGAIN);
    return r;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_recvBlocking(JNIEnv *env, jclass cls,
        jint fd, jlong addr, jint len) {
    (void)env;
    (void)cls;
    return recv_blocking(fd, LINERATE_PTR(addr), (size_t)len, 0);
}

/* recvBlocking that stamps the time at stamp (stamp_now) when the call returns data or a stream's end. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_recvBlockingStamped(JNIEnv *env,
        jclass cls, jint fd, jlong addr, jint len, jlong stamp) {
    (void)env;
    (void)cls;
    jint r = recv_blocking(fd, LINERATE_PTR(addr), (size_t)len, 0);
    if (r >= 0) {
        stamp_now(stamp);
    }
    return r;
}

/* An echo end's step on a socket of blockWithTimeout: one recv(2) of up to cap bytes at addr, then
 * one send(2) of what came (family 0: a connected socket), or sendto(2) to the peer's address
 * (family 4 or 6). Returns (bytes sent << 32) | bytes received; 0 at a stream's
 * end (or for an empty datagram); -EAGAIN when nothing came within SO_RCVTIMEO; -errno of the
 * recv(2). A send that fails, or moves less than came (its SO_SNDTIMEO ran out), reports what it
 * moved, 0 for a failure, and the caller sends the rest and meets the error itself. */
LINERATE_EXPORT JNIEXPORT jlong JNICALL Java_io_linerate_socket_internal_Sockets_echoBlocking(JNIEnv *env,
        jclass cls, jint fd, jint family, jlong peer, jint port, jlong addr, jint cap) {
    (void)env;
    (void)cls;
    jint got = recv_blocking(fd, LINERATE_PTR(addr), (size_t)cap, 0);
    if (got <= 0) {
        return got;
    }
    struct sockaddr_storage ss;
    socklen_t sl = family == 0 ? 0 : fill_addr(&ss, family, peer, port);
    jint sent;
    do {
        sent = blocking_outcome(sendto(fd, LINERATE_PTR(addr), (size_t)got, MSG_NOSIGNAL,
                family == 0 ? NULL : (struct sockaddr *)&ss, sl));
    } while (sent == LINERATE_AGAIN);
    return ((jlong)(sent > 0 ? sent : 0) << 32) | (jlong)got;
}

/* recv_blocking with MSG_TRUNC on a TCP socket: the kernel drops up to len bytes instead of copying them. */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_recvTruncatedBlocking(JNIEnv *env,
        jclass cls, jint fd, jint len) {
    (void)env;
    (void)cls;
    return recv_blocking(fd, NULL, (size_t)len, MSG_TRUNC);
}

/* The most descriptors one pollAll call waits on. */
#define LINERATE_POLL_MAX 1024

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_pollAll(JNIEnv *env, jclass cls,
        jlong entries, jint count, jint timeoutMs) {
    (void)env;
    (void)cls;
    if (count < 1 || count > LINERATE_POLL_MAX) {
        return -EINVAL;
    }
    jint *e = LINERATE_PTR(entries);
    struct pollfd p[LINERATE_POLL_MAX];
    for (jint i = 0; i < count; i++) {
        p[i].fd = e[3 * i];
        p[i].events = (short)e[3 * i + 1];
        p[i].revents = 0;
    }
    int r;
    do {
        r = poll(p, (nfds_t)count, timeoutMs);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        return linerate_neg_errno();
    }
    for (jint i = 0; i < count; i++) {
        e[3 * i + 2] = p[i].revents;
    }
    return r;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_shutdown(JNIEnv *env, jclass cls, jint fd, jint how) {
    (void)env;
    (void)cls;
    return shutdown(fd, how) < 0 ? linerate_neg_errno() : 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_close(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    return close(fd) < 0 ? linerate_neg_errno() : 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_setInt(JNIEnv *env, jclass cls, jint fd,
        jint level, jint name, jint value) {
    (void)env;
    (void)cls;
    int v = value;
    return setsockopt(fd, level, name, &v, sizeof v) < 0 ? linerate_neg_errno() : 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_getInt(JNIEnv *env, jclass cls, jint fd,
        jint level, jint name) {
    (void)env;
    (void)cls;
    int v = 0;
    socklen_t len = sizeof v;
    if (getsockopt(fd, level, name, &v, &len) < 0) {
        return linerate_neg_errno();
    }
    return v < 0 ? -ERANGE : v;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_tcpInfo(JNIEnv *env, jclass cls, jint fd,
        jlong out, jint capacity) {
    (void)env;
    (void)cls;
    socklen_t len = (socklen_t)capacity;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, LINERATE_PTR(out), &len) < 0) {
        return linerate_neg_errno();
    }
    return (jint)len;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_layout(JNIEnv *env, jclass cls, jlong out, jint capacity) {
    (void)env;
    (void)cls;
    /* the order of io.linerate.socket.internal.Layout.FIELDS */
    const jint values[] = {
        (jint)offsetof(struct tcp_info, tcpi_snd_mss),
        (jint)offsetof(struct tcp_info, tcpi_rcv_mss),
        (jint)offsetof(struct tcp_info, tcpi_rtt),
        (jint)offsetof(struct tcp_info, tcpi_rttvar),
        (jint)offsetof(struct tcp_info, tcpi_snd_cwnd),
        (jint)offsetof(struct tcp_info, tcpi_total_retrans),
        (jint)offsetof(struct tcp_info, tcpi_pacing_rate),
        (jint)offsetof(struct tcp_info, tcpi_bytes_acked),
        (jint)offsetof(struct tcp_info, tcpi_delivery_rate),
        (jint)sizeof(((struct tcp_info *)0)->tcpi_pacing_rate),
        (jint)sizeof(((struct tcp_info *)0)->tcpi_delivery_rate),
        (jint)SOL_SOCKET,
        (jint)SO_SNDBUF,
        (jint)SO_RCVBUF,
        (jint)SO_REUSEADDR,
        (jint)IPPROTO_TCP,
        (jint)TCP_NODELAY,
        (jint)TCP_MAXSEG,
        (jint)IPPROTO_IP,
        (jint)IP_TOS,
        (jint)IPPROTO_IPV6,
        (jint)IPV6_TCLASS,
        (jint)SHUT_WR,
        (jint)POLLIN,
        (jint)POLLOUT,
        (jint)POLLERR,
        (jint)POLLHUP,
        (jint)IPPROTO_UDP,
        (jint)UDP_SEGMENT,
        (jint)UDP_GRO,
    };
    return linerate_layout_write(out, capacity, values, LINERATE_COUNT(values));
}

/* --- the ping-pong's Unix-domain datagram sockets, sendto(2) and SO_BINDTODEVICE --- */

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_unixDatagramSocket(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    return fd < 0 ? linerate_neg_errno() : fd;
}

/* Fills a sockaddr_un from the len path bytes at path (a leading NUL names the abstract namespace). */
static int fill_unix(struct sockaddr_un *a, jlong path, jint len, socklen_t *out_len) {
    if (len < 1 || (size_t)len > sizeof a->sun_path) {
        return -ENAMETOOLONG;
    }
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    memcpy(a->sun_path, LINERATE_PTR(path), (size_t)len);
    *out_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)len);
    return 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_bindUnix(JNIEnv *env, jclass cls, jint fd,
        jlong path, jint len) {
    (void)env;
    (void)cls;
    struct sockaddr_un a;
    socklen_t al;
    int r = fill_unix(&a, path, len, &al);
    if (r < 0) {
        return r;
    }
    return bind(fd, (struct sockaddr *)&a, al) < 0 ? linerate_neg_errno() : 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_connectUnix(JNIEnv *env, jclass cls, jint fd,
        jlong path, jint len) {
    (void)env;
    (void)cls;
    struct sockaddr_un a;
    socklen_t al;
    int r = fill_unix(&a, path, len, &al);
    if (r < 0) {
        return r;
    }
    return connect(fd, (struct sockaddr *)&a, al) < 0 ? linerate_neg_errno() : 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_sendTo(JNIEnv *env, jclass cls, jint fd,
        jint family, jlong peer, jint port, jlong addr, jint len, jint timeoutMs) {
    (void)env;
    (void)cls;
    struct sockaddr_storage ss;
    socklen_t sl = fill_addr(&ss, family, peer, port);
    return send_bounded(fd, addr, len, (struct sockaddr *)&ss, sl, timeoutMs);
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_bindToDevice(JNIEnv *env, jclass cls, jint fd,
        jlong name, jint len) {
    (void)env;
    (void)cls;
    return setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, LINERATE_PTR(name), (socklen_t)len) < 0 ? linerate_neg_errno() : 0;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_socket_internal_Sockets_boundDevice(JNIEnv *env, jclass cls, jint fd,
        jlong out, jint capacity) {
    (void)env;
    (void)cls;
    socklen_t len = (socklen_t)capacity;
    if (getsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, LINERATE_PTR(out), &len) < 0) {
        return linerate_neg_errno();
    }
    return (jint)len;
}
