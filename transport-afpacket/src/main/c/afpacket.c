/*
 * linerate transport-afpacket: the thin native layer under io.linerate.afpacket.internal.Native.
 *
 * Every function takes primitives and direct-buffer addresses and returns a non-negative result
 * or -errno (linerate_jni.h, of linerate native); the Java side turns -errno into exceptions that
 * name the interface and the call.
 * Nothing here allocates, logs or keeps state between calls: what a call needs beyond its stack
 * (a send plan) lives in memory the Java side owns.
 */
#define _GNU_SOURCE
#include <net/if.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <linux/ethtool.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>

#include "linerate_jni.h"
#include "io_linerate_afpacket_internal_Native.h"

#define EXPORT LINERATE_EXPORT
#define PTR(a) LINERATE_PTR(a)
/* Most frames in one sendmmsg call; io.linerate.afpacket.RawTransferSpec.MAX_BATCH must agree,
 * and Java compares the two when it loads this library (Native.maxBatch). */
#define MAX_BATCH 1024

EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_probe(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    close(fd);
    return 0;
}

EXPORT JNIEXPORT jlong JNICALL Java_io_linerate_afpacket_internal_Native_address(JNIEnv *env, jclass cls, jobject buf) {
    (void)cls;
    void *p = (*env)->GetDirectBufferAddress(env, buf);
    return (jlong)(uintptr_t)p;
}

/* Sizes and offsets of every kernel structure field the Java side reads or writes, in the order
 * io.linerate.afpacket.internal.Layout lists them. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_layout(JNIEnv *env, jclass cls, jlong out, jint capacity) {
    (void)env;
    (void)cls;
    const jint v[] = {
        (jint)sizeof(struct ethtool_rxnfc),
        (jint)offsetof(struct ethtool_rxnfc, cmd),
        (jint)offsetof(struct ethtool_rxnfc, flow_type),
        (jint)offsetof(struct ethtool_rxnfc, data),
        (jint)offsetof(struct ethtool_rxnfc, fs),
        (jint)offsetof(struct ethtool_rxnfc, rule_cnt),
        (jint)offsetof(struct ethtool_rxnfc, rule_locs),
        (jint)sizeof(struct ethtool_rx_flow_spec),
        (jint)offsetof(struct ethtool_rx_flow_spec, flow_type),
        (jint)offsetof(struct ethtool_rx_flow_spec, h_u),
        (jint)offsetof(struct ethtool_rx_flow_spec, h_ext),
        (jint)offsetof(struct ethtool_rx_flow_spec, m_u),
        (jint)offsetof(struct ethtool_rx_flow_spec, m_ext),
        (jint)offsetof(struct ethtool_rx_flow_spec, ring_cookie),
        (jint)offsetof(struct ethtool_rx_flow_spec, location),
        (jint)offsetof(union ethtool_flow_union, ether_spec.h_dest),
        (jint)offsetof(union ethtool_flow_union, ether_spec.h_source),
        (jint)offsetof(union ethtool_flow_union, ether_spec.h_proto),
        (jint)sizeof(struct ethtool_drvinfo),
        (jint)offsetof(struct ethtool_drvinfo, driver),
        (jint)offsetof(struct ethtool_drvinfo, bus_info),
        (jint)offsetof(struct tpacket_block_desc, hdr.bh1.block_status),
        (jint)offsetof(struct tpacket_block_desc, hdr.bh1.num_pkts),
        (jint)offsetof(struct tpacket_block_desc, hdr.bh1.offset_to_first_pkt),
        (jint)offsetof(struct tpacket3_hdr, tp_next_offset),
        (jint)offsetof(struct tpacket3_hdr, tp_sec),
        (jint)offsetof(struct tpacket3_hdr, tp_nsec),
        (jint)offsetof(struct tpacket3_hdr, tp_snaplen),
        (jint)offsetof(struct tpacket3_hdr, tp_len),
        (jint)offsetof(struct tpacket3_hdr, tp_status),
        (jint)offsetof(struct tpacket3_hdr, tp_mac),
        (jint)sizeof(struct tpacket_stats_v3),
        (jint)sizeof(struct hwtstamp_config),
        (jint)offsetof(struct hwtstamp_config, tx_type),
        (jint)offsetof(struct hwtstamp_config, rx_filter),
        (jint)sizeof(struct pollfd),
        (jint)sizeof(struct tpacket2_hdr),
        (jint)offsetof(struct tpacket2_hdr, tp_status),
        (jint)offsetof(struct tpacket2_hdr, tp_len),
        (jint)offsetof(struct tpacket2_hdr, tp_snaplen),
        (jint)TPACKET2_HDRLEN,
        (jint)sizeof(struct sockaddr_ll),
    };
    return linerate_layout_write(out, capacity, v, LINERATE_COUNT(v));
}

static int copy_ifname(struct ifreq *ifr, jlong ifname) {
    const char *name = PTR(ifname);
    size_t len = strnlen(name, IFNAMSIZ);
    if (len == 0 || len >= IFNAMSIZ) {
        return -EINVAL;
    }
    memset(ifr, 0, sizeof *ifr);
    memcpy(ifr->ifr_name, name, len);
    return 0;
}

/* One ioctl on the interface named at ifname, with ifr_data pointing at data, through a socket of
 * its own: 0 or -errno. */
static int ifreq_ioctl(jlong ifname, unsigned long request, void *data) {
    struct ifreq ifr;
    int rc = copy_ifname(&ifr, ifname);
    if (rc < 0) {
        return rc;
    }
    ifr.ifr_data = data;
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    rc = ioctl(fd, request, &ifr) < 0 ? linerate_neg_errno() : 0;
    close(fd);
    return rc;
}

/* One SIOCETHTOOL call: data points at the request, whose first u32 is the ethtool command. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_ethtool(JNIEnv *env, jclass cls, jlong ifname, jlong data) {
    (void)env;
    (void)cls;
    return ifreq_ioctl(ifname, SIOCETHTOOL, PTR(data));
}

/* SIOCSHWTSTAMP (set != 0; the kernel writes back what it applied) or SIOCGHWTSTAMP with the
 * struct hwtstamp_config at config. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_hwtstamp(JNIEnv *env, jclass cls, jlong ifname, jlong config, jint set) {
    (void)env;
    (void)cls;
    return ifreq_ioctl(ifname, set ? SIOCSHWTSTAMP : SIOCGHWTSTAMP, PTR(config));
}

EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_ifindex(JNIEnv *env, jclass cls, jlong ifname) {
    (void)env;
    (void)cls;
    struct ifreq ifr;
    int rc = copy_ifname(&ifr, ifname);
    if (rc < 0) {
        return rc;
    }
    unsigned idx = if_nametoindex(ifr.ifr_name);
    return idx == 0 ? linerate_neg_errno() : (jint)idx;
}

static int bind_ll(int fd, int ifindex, int ethertype) {
    struct sockaddr_ll sll;
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons((uint16_t)ethertype);
    sll.sll_ifindex = ifindex;
    return bind(fd, (struct sockaddr *)&sll, sizeof sll) < 0 ? linerate_neg_errno() : 0;
}

/* A sending socket: protocol 0 so it never receives, bound to ifindex, optionally bypassing the qdisc. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_openTx(JNIEnv *env, jclass cls, jint ifindex, jint qdiscBypass, jint sndbuf) {
    (void)env;
    (void)cls;
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    int rc = 0;
    if (qdiscBypass) {
        int one = 1;
        if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one) < 0) {
            rc = linerate_neg_errno();
        }
    }
    if (rc == 0 && sndbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf) < 0) {
        rc = linerate_neg_errno();
    }
    if (rc == 0) {
        rc = bind_ll(fd, ifindex, 0);
    }
    if (rc < 0) {
        close(fd);
        return rc;
    }
    return fd;
}

EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_maxBatch(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MAX_BATCH;
}

/* A send plan: everything sendmmsg needs for one stream's batch of frames, prepared once in
 * memory the Java side owns (which never moves) and used by every call:
 *   struct sockaddr_ll | struct mmsghdr[count] | struct iovec[count]
 * The plan points into itself and at the frames, so both must stay where they are. */
struct send_plan_head {
    struct sockaddr_ll sll;
    uint32_t count;
};

static size_t plan_msgs_offset(void) {
    size_t a = _Alignof(struct mmsghdr);
    return (sizeof(struct send_plan_head) + a - 1) / a * a;
}

static size_t plan_size(int count) {
    return plan_msgs_offset() + (size_t)count * (sizeof(struct mmsghdr) + sizeof(struct iovec));
}

EXPORT JNIEXPORT jlong JNICALL Java_io_linerate_afpacket_internal_Native_sendPlanSize(JNIEnv *env, jclass cls, jint count) {
    (void)env;
    (void)cls;
    if (count <= 0 || count > MAX_BATCH) {
        return -EINVAL;
    }
    return (jlong)plan_size(count);
}

/* Prepares the plan at plan (sendPlanSize(count) bytes, 8-byte aligned) for count frames of
 * frameSize bytes laid out back to back at frames, sent to ifindex with ethertype; the
 * destination address is the first frame's. 0 or -EINVAL. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_prepareSend(JNIEnv *env, jclass cls, jlong plan, jint ifindex,
                                                                                    jint ethertype, jlong frames, jint frameSize,
                                                                                    jint count) {
    (void)env;
    (void)cls;
    if (count <= 0 || count > MAX_BATCH || frameSize <= 0 || (plan & 7) != 0) {
        return -EINVAL;
    }
    struct send_plan_head *head = PTR(plan);
    struct mmsghdr *msgs = (struct mmsghdr *)((char *)head + plan_msgs_offset());
    struct iovec *iov = (struct iovec *)(msgs + count);
    memset(head, 0, plan_size(count));
    head->sll.sll_family = AF_PACKET;
    head->sll.sll_protocol = htons((uint16_t)ethertype);
    head->sll.sll_ifindex = ifindex;
    head->sll.sll_halen = ETH_ALEN;
    memcpy(head->sll.sll_addr, PTR(frames), ETH_ALEN);
    head->count = (uint32_t)count;
    char *base = PTR(frames);
    for (int i = 0; i < count; i++) {
        iov[i].iov_base = base + (size_t)i * (size_t)frameSize;
        iov[i].iov_len = (size_t)frameSize;
        msgs[i].msg_hdr.msg_name = &head->sll;
        msgs[i].msg_hdr.msg_namelen = sizeof head->sll;
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    return 0;
}

/* sendmmsg of the first count frames of a prepared plan, without waiting.
 * Returns the number the kernel accepted (possibly fewer) or -errno when it took none. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_send(JNIEnv *env, jclass cls, jint fd, jlong plan, jint count) {
    (void)env;
    (void)cls;
    struct send_plan_head *head = PTR(plan);
    if (count <= 0 || (uint32_t)count > head->count) {
        return -EINVAL;
    }
    struct mmsghdr *msgs = (struct mmsghdr *)((char *)head + plan_msgs_offset());
    int n = sendmmsg(fd, msgs, (unsigned)count, MSG_DONTWAIT);
    return n < 0 ? linerate_neg_errno() : n;
}

/* A sending socket with a TPACKET_V2 TX ring of frameCount slots of slotSize bytes, bypassing the
 * qdisc, bound to ifindex with protocol 0 (it never receives). out receives the ring address and
 * length (two u64). Returns the descriptor or -errno; nothing stays open on failure. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_openTxRing(JNIEnv *env, jclass cls, jint ifindex, jint slotSize,
                                                                                   jint frameCount, jint blockSize, jlong out) {
    (void)env;
    (void)cls;
    if (slotSize <= 0 || frameCount <= 0 || blockSize <= 0 || blockSize % slotSize != 0) {
        return -EINVAL;
    }
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    int rc = 0;
    void *ring = MAP_FAILED;
    unsigned perBlock = (unsigned)(blockSize / slotSize);
    unsigned blocks = ((unsigned)frameCount + perBlock - 1) / perBlock;
    size_t len = (size_t)blockSize * blocks;
    int v2 = TPACKET_V2;
    int one = 1;
    if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v2, sizeof v2) < 0
            || setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one) < 0) {
        rc = linerate_neg_errno();
        goto fail;
    }
    struct tpacket_req req;
    memset(&req, 0, sizeof req);
    req.tp_block_size = (unsigned)blockSize;
    req.tp_block_nr = blocks;
    req.tp_frame_size = (unsigned)slotSize;
    req.tp_frame_nr = perBlock * blocks;
    if (setsockopt(fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof req) < 0) {
        rc = linerate_neg_errno();
        goto fail;
    }
    ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (ring == MAP_FAILED) {
        rc = linerate_neg_errno();
        goto fail;
    }
    rc = bind_ll(fd, ifindex, 0);
    if (rc < 0) {
        goto fail;
    }
    uint64_t *o = PTR(out);
    o[0] = (uint64_t)(uintptr_t)ring;
    o[1] = (uint64_t)len;
    o[2] = (uint64_t)req.tp_frame_nr;
    return fd;
fail:
    if (ring != MAP_FAILED) {
        munmap(ring, len);
    }
    close(fd);
    return rc;
}

/* Asks the kernel to transmit every TX ring slot marked TP_STATUS_SEND_REQUEST, without waiting:
 * bytes handed to the driver, or -errno. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_flushTx(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    ssize_t n = send(fd, NULL, 0, MSG_DONTWAIT);
    return n < 0 ? linerate_neg_errno() : (jint)(n > 0x7fffffff ? 0x7fffffff : n);
}

/* A receiving socket with a TPACKET_V3 ring for one ethertype on one interface.
 * out receives the ring address and length (two u64). Returns the descriptor or -errno;
 * nothing stays open on failure. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_openRx(JNIEnv *env, jclass cls, jint ifindex, jint ethertype,
                                                                               jint blockSize, jint blockCount, jint frameSize,
                                                                               jint retireMs, jint hwStamps, jlong out) {
    (void)env;
    (void)cls;
    if (retireMs <= 0 || blockSize <= 0 || blockCount <= 0 || frameSize <= 0) {
        return -EINVAL;
    }
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return linerate_neg_errno();
    }
    int rc = 0;
    void *ring = MAP_FAILED;
    size_t len = (size_t)blockSize * (size_t)blockCount;
    int v3 = TPACKET_V3;
    if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v3, sizeof v3) < 0) {
        rc = linerate_neg_errno();
        goto fail;
    }
    int stamping = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
    if (hwStamps) {
        stamping |= SOF_TIMESTAMPING_RX_HARDWARE | SOF_TIMESTAMPING_RAW_HARDWARE;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &stamping, sizeof stamping) < 0) {
        rc = linerate_neg_errno();
        goto fail;
    }
    if (hwStamps) {
        int raw = SOF_TIMESTAMPING_RAW_HARDWARE;
        if (setsockopt(fd, SOL_PACKET, PACKET_TIMESTAMP, &raw, sizeof raw) < 0) {
            rc = linerate_neg_errno();
            goto fail;
        }
    }
    struct tpacket_req3 req;
    memset(&req, 0, sizeof req);
    req.tp_block_size = (unsigned)blockSize;
    req.tp_block_nr = (unsigned)blockCount;
    req.tp_frame_size = (unsigned)frameSize;
    req.tp_frame_nr = (unsigned)(((size_t)blockSize / (size_t)frameSize) * (size_t)blockCount);
    req.tp_retire_blk_tov = (unsigned)retireMs;
    if (setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof req) < 0) {
        rc = linerate_neg_errno();
        goto fail;
    }
    ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, fd, 0);
    if (ring == MAP_FAILED) {
        ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    if (ring == MAP_FAILED) {
        rc = linerate_neg_errno();
        goto fail;
    }
    /* Bind last: frames only flow once the ring is ready. */
    rc = bind_ll(fd, ifindex, ethertype);
    if (rc < 0) {
        goto fail;
    }
    uint64_t *o = PTR(out);
    o[0] = (uint64_t)(uintptr_t)ring;
    o[1] = (uint64_t)len;
    return fd;
fail:
    if (ring != MAP_FAILED) {
        munmap(ring, len);
    }
    close(fd);
    return rc;
}

/* poll(2) over n struct pollfd at fds, bounded by timeoutMs; EINTR counts as nothing ready. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_poll(JNIEnv *env, jclass cls, jlong fds, jint n, jint timeoutMs) {
    (void)env;
    (void)cls;
    int rc = poll(PTR(fds), (nfds_t)n, timeoutMs);
    if (rc < 0) {
        return errno == EINTR ? 0 : linerate_neg_errno();
    }
    return rc;
}

/* PACKET_STATISTICS (tpacket_stats_v3: packets, drops, freeze count); the kernel resets it on read. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_packetStats(JNIEnv *env, jclass cls, jint fd, jlong out) {
    (void)env;
    (void)cls;
    socklen_t len = sizeof(struct tpacket_stats_v3);
    return getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, PTR(out), &len) < 0 ? linerate_neg_errno() : 0;
}

/* The pending socket error (SO_ERROR) as a positive errno, 0 if none, or -errno. */
EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_socketError(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    int err = 0;
    socklen_t len = sizeof err;
    return getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 ? linerate_neg_errno() : err;
}

EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_close(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    return close(fd) < 0 ? linerate_neg_errno() : 0;
}

EXPORT JNIEXPORT jint JNICALL Java_io_linerate_afpacket_internal_Native_unmap(JNIEnv *env, jclass cls, jlong addr, jlong len) {
    (void)env;
    (void)cls;
    return munmap(PTR(addr), (size_t)len) < 0 ? linerate_neg_errno() : 0;
}
