package io.linerate.core;

/**
 * How a stream's ends hand payload to the kernel and take it back: the system calls, not the
 * traffic. The default ({@link #DEFAULT}) lets the transport choose (the native transport batches
 * UDP; NIO makes one call per datagram or write). Every other value asks for a path that only some
 * transports have ({@link io.linerate.core.spi.Transport#unsupportedReason}), so asking for one
 * selects the transport that runs it.
 *
 * @param batch UDP datagrams per {@code sendmmsg(2)}/{@code recvmmsg(2)} call, 1..{@value #MAX_BATCH}
 *     ({@code UIO_MAXIOV}, {@code <linux/uio.h>}); 0 lets the transport choose; 1 is one
 *     {@code send(2)}/{@code recv(2)} per datagram; with {@code gso}, the messages per call, each a
 *     buffer of several segments
 * @param gso UDP generic segmentation and receive offload, as iperf3's {@code --gsro}: the sender
 *     hands the kernel several payload-sized segments per call ({@code UDP_SEGMENT}, udp(7)), the
 *     receiver takes coalesced segments ({@code UDP_GRO}); every segment still carries its own
 *     linerate header
 * @param zeroCopySend TCP sends with {@code sendfile(2)} from a file holding the payload, as
 *     iperf3's {@code -Z}: the sender makes no copy of its own
 * @param skipReceiveCopy TCP receives with {@code MSG_TRUNC} (tcp(7)), as iperf3's
 *     {@code --skip-rx-copy}: the kernel drops the bytes instead of copying them to the receiver,
 *     so their content is not checked
 */
public record StreamIo(int batch, boolean gso, boolean zeroCopySend, boolean skipReceiveCopy) {
    /** Largest batch: {@code UIO_MAXIOV}, the kernel's limit of messages per {@code sendmmsg(2)} call. */
    public static final int MAX_BATCH = 1024;
    /** The transport's own choice of every path. */
    public static final StreamIo DEFAULT = new StreamIo(0, false, false, false);

    /** @throws IllegalArgumentException for a batch outside 0..{@value #MAX_BATCH}, naming it */
    public StreamIo {
        if (batch < 0 || batch > MAX_BATCH) {
            throw new IllegalArgumentException("batch " + batch + " datagrams per call is out of range; allowed: "
                    + "0 (the transport's choice) or 1.." + MAX_BATCH + " (UIO_MAXIOV)");
        }
    }

    /** Marker suffix of a stream with {@code gso} ({@code udp4_gso}). */
    public static final String GSO_MARKER = "_gso";
    /** Marker suffix of a stream with {@code zeroCopySend} ({@code tcp4_zerocopy}). */
    public static final String ZERO_COPY_MARKER = "_zerocopy";
    /** Marker suffix of a stream with {@code skipReceiveCopy} ({@code tcp4_skiprxcopy}). */
    public static final String SKIP_RECEIVE_COPY_MARKER = "_skiprxcopy";

    /**
     * @return what this path adds to a stream's marker ({@link TransferSpec#testName()}), so that its
     *     figures are a series of their own: {@value #GSO_MARKER}, {@value #ZERO_COPY_MARKER} and
     *     {@value #SKIP_RECEIVE_COPY_MARKER} in that order, each where asked; empty for the batch, which
     *     changes the calls but not what they carry, and for the default
     */
    public String markerSuffix() {
        return (gso ? GSO_MARKER : "") + (zeroCopySend ? ZERO_COPY_MARKER : "")
                + (skipReceiveCopy ? SKIP_RECEIVE_COPY_MARKER : "");
    }

    /** @return whether every path is the transport's own choice */
    public boolean isDefault() {
        return equals(DEFAULT);
    }

    /** @return the options that differ from the default, as the command line names them ({@code batch=32 gso}), or empty */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        if (batch != 0) {
            s.append("batch=").append(batch);
        }
        append(s, gso, "gso");
        append(s, zeroCopySend, "zerocopy");
        append(s, skipReceiveCopy, "skip-rx-copy");
        return s.toString();
    }

    private static void append(StringBuilder s, boolean on, String name) {
        if (on) {
            s.append(s.isEmpty() ? "" : " ").append(name);
        }
    }
}
