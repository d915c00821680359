package io.linerate.core;

import java.util.Objects;
import java.util.Optional;

/**
 * Socket options as requested and as the kernel applied them (DESIGN rule 9): Linux doubles
 * SO_SNDBUF/SO_RCVBUF and caps them at {@code net.core.wmem_max}/{@code rmem_max}, so only
 * the value read back is reported as applied. A requested value of 0 means "kernel default".
 *
 * @param trafficClassRequested TOS / traffic class byte asked for on the sender
 * @param trafficClassApplied the sender's value read back after connect
 * @param sendBufferRequested SO_SNDBUF asked for, bytes
 * @param sendBufferApplied the sender's SO_SNDBUF read back, bytes
 * @param receiveBufferRequested SO_RCVBUF asked for, bytes
 * @param receiveBufferApplied the receiver's SO_RCVBUF read back, bytes
 * @param noDelayRequested TCP_NODELAY asked for
 * @param noDelayApplied TCP_NODELAY read back (false for UDP)
 * @param tcpMss the sender's MSS (TCP_MAXSEG) for TCP, read from both ends' sockets where the
 *     transport can ask the kernel (the native transport), else derived from the path MTU and the TCP
 *     options in use (see {@link TcpMss}); empty for other protocols or where the MTU cannot be read
 */
public record AppliedOptions(int trafficClassRequested, int trafficClassApplied,
                             int sendBufferRequested, int sendBufferApplied,
                             int receiveBufferRequested, int receiveBufferApplied,
                             boolean noDelayRequested, boolean noDelayApplied, Optional<TcpMss> tcpMss) {

    /** @throws NullPointerException for a null MSS (use {@link Optional#empty()}) */
    public AppliedOptions {
        Objects.requireNonNull(tcpMss, "tcpMss");
    }

    /**
     * @param mss the MSS to report instead, such as one read again once a run has ended
     * @return these options with that MSS
     */
    public AppliedOptions withTcpMss(Optional<TcpMss> mss) {
        return new AppliedOptions(trafficClassRequested, trafficClassApplied, sendBufferRequested, sendBufferApplied,
                receiveBufferRequested, receiveBufferApplied, noDelayRequested, noDelayApplied, mss);
    }

    /** Options without an MSS: UDP, pipes, Unix sockets. */
    public AppliedOptions(int trafficClassRequested, int trafficClassApplied,
                          int sendBufferRequested, int sendBufferApplied,
                          int receiveBufferRequested, int receiveBufferApplied,
                          boolean noDelayRequested, boolean noDelayApplied) {
        this(trafficClassRequested, trafficClassApplied, sendBufferRequested, sendBufferApplied,
                receiveBufferRequested, receiveBufferApplied, noDelayRequested, noDelayApplied, Optional.empty());
    }
}
