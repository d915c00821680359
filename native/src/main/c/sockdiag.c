/*
 * linerate native: a TCP connection's struct tcp_info (<linux/tcp.h>) through sock_diag netlink
 * (NETLINK_SOCK_DIAG, <linux/sock_diag.h>, <linux/inet_diag.h>; sock_diag(7)), as ss -ti reads it:
 * one exact-tuple inet_diag_req_v2 asking for INET_DIAG_INFO, without a descriptor of the
 * connection. The JNI functions of io.linerate.jni.internal.SockDiag; each returns a non-negative
 * result or -errno (linerate_jni.h). Nothing here allocates or keeps state.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "linerate_jni.h"
#include "io_linerate_jni_internal_SockDiag.h"

/* Room for one reply: the message, INET_DIAG_INFO and the attributes the kernel always adds. */
#define REPLY_BYTES 8192

/*
 * Whether the reply is the connection asked for: an exact lookup falls back to a listening socket
 * bound to the local port when no connection has the tuple. A dual-stack socket found by its IPv4
 * tuple answers in AF_INET6 with mapped addresses; its ports are compared then.
 */
static int same_tuple(const struct inet_diag_req_v2 *r, const struct inet_diag_msg *m) {
    if (m->id.idiag_sport != r->id.idiag_sport || m->id.idiag_dport != r->id.idiag_dport) {
        return 0;
    }
    if (m->idiag_family != r->sdiag_family) {
        return 1;
    }
    size_t n = r->sdiag_family == AF_INET ? 4 : 16;
    return memcmp(m->id.idiag_src, r->id.idiag_src, n) == 0 && memcmp(m->id.idiag_dst, r->id.idiag_dst, n) == 0;
}

/* Sends the request on fd and copies the reply's INET_DIAG_INFO payload to out. */
static jint ask(int fd, const struct inet_diag_req_v2 *r, void *out, jint capacity) {
    struct {
        struct nlmsghdr nlh;
        struct inet_diag_req_v2 r;
    } req;
    memset(&req, 0, sizeof req);
    req.nlh.nlmsg_len = sizeof req;
    req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    req.nlh.nlmsg_flags = NLM_F_REQUEST;
    req.nlh.nlmsg_seq = 1;
    req.r = *r;
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    if (sendto(fd, &req, sizeof req, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
        return linerate_neg_errno();
    }
    long reply[REPLY_BYTES / sizeof(long)];
    for (;;) {
        ssize_t got = recv(fd, reply, sizeof reply, 0);
        if (got < 0) {
            return linerate_neg_errno(); /* EAGAIN: SO_RCVTIMEO passed without an answer */
        }
        int n = (int)got;
        for (struct nlmsghdr *h = (struct nlmsghdr *)reply; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
            if (h->nlmsg_seq != req.nlh.nlmsg_seq) {
                continue;
            }
            if (h->nlmsg_type == NLMSG_ERROR) {
                const struct nlmsgerr *e = NLMSG_DATA(h);
                return e->error < 0 ? e->error : -EPROTO; /* ENOENT: no such connection */
            }
            if (h->nlmsg_type == NLMSG_DONE) {
                return -ENOENT;
            }
            if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY) {
                continue;
            }
            const struct inet_diag_msg *m = NLMSG_DATA(h);
            if (!same_tuple(r, m)) {
                return -ENOENT; /* the lookup fell back to a listener on the local port */
            }
            int left = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *m));
            for (struct rtattr *a = (struct rtattr *)(m + 1); RTA_OK(a, left); a = RTA_NEXT(a, left)) {
                if (a->rta_type == INET_DIAG_INFO) {
                    jint len = (jint)RTA_PAYLOAD(a);
                    jint copied = len < capacity ? len : capacity;
                    memcpy(out, RTA_DATA(a), (size_t)copied);
                    return copied;
                }
            }
            return -ENODATA; /* a connection without tcp_info: time-wait, or a request socket */
        }
    }
}

/*
 * tcpInfo(family, src, sport, dst, dport, out, capacity, timeoutMillis): src and dst point at the
 * local and remote addresses in network order (4 bytes for AF_INET, 16 for AF_INET6), ports in
 * host order. Writes min(capacity, the kernel's sizeof(struct tcp_info)) bytes to out and returns
 * that count; -ENOENT when no TCP connection has this tuple; -EAGAIN when no answer came within
 * timeoutMillis. The netlink socket is opened for this call and closed on every path.
 */
LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_jni_internal_SockDiag_tcpInfo(JNIEnv *env, jclass cls,
        jint family, jlong src, jint sport, jlong dst, jint dport, jlong out, jint capacity, jint timeoutMillis) {
    (void)env;
    (void)cls;
    if ((family != AF_INET && family != AF_INET6) || capacity < 0 || timeoutMillis <= 0) {
        return -EINVAL;
    }
    struct inet_diag_req_v2 r;
    memset(&r, 0, sizeof r);
    r.sdiag_family = (__u8)family;
    r.sdiag_protocol = IPPROTO_TCP;
    r.idiag_ext = 1 << (INET_DIAG_INFO - 1);
    r.idiag_states = ~0u;
    r.id.idiag_sport = htons((uint16_t)sport);
    r.id.idiag_dport = htons((uint16_t)dport);
    size_t addrLen = family == AF_INET ? 4 : 16;
    memcpy(r.id.idiag_src, LINERATE_PTR(src), addrLen);
    memcpy(r.id.idiag_dst, LINERATE_PTR(dst), addrLen);
    r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;

    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    struct timeval tv = {.tv_sec = timeoutMillis / 1000, .tv_usec = (timeoutMillis % 1000) * 1000};
    jint result = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0
            ? linerate_neg_errno() : ask(fd, &r, LINERATE_PTR(out), capacity);
    close(fd);
    return result;
}

LINERATE_EXPORT JNIEXPORT jint JNICALL Java_io_linerate_jni_internal_SockDiag_layout(JNIEnv *env, jclass cls,
        jlong out, jint capacity) {
    (void)env;
    (void)cls;
    static const jint values[] = {
        (jint)offsetof(struct tcp_info, tcpi_state),
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
        (jint)sizeof(((struct tcp_info *)0)->tcpi_bytes_acked),
        (jint)sizeof(((struct tcp_info *)0)->tcpi_delivery_rate),
        AF_INET,
        AF_INET6,
    };
    return linerate_layout_write(out, capacity, values, LINERATE_COUNT(values));
}

LINERATE_EXPORT JNIEXPORT jlong JNICALL Java_io_linerate_jni_internal_SockDiag_address(JNIEnv *env, jclass cls,
        jobject directBuffer) {
    (void)cls;
    return (jlong)(uintptr_t)(*env)->GetDirectBufferAddress(env, directBuffer);
}
