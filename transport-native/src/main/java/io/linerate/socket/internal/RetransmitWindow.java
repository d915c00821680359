package io.linerate.socket.internal;

import io.linerate.core.DatagramHeader;
import io.linerate.core.TcpStats;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.TcpInfoReader;

/**
 * The sending socket's {@code tcpi_total_retrans} at both ends of the measured window, read on the
 * sending thread as it takes each phase up ({@link #observe}, no allocation), and the figures of
 * {@code TCP_INFO} at the end ({@link #stats}). The window's end is the first message after the
 * engine ended the window (a duration bound); where the sender never sees that (a count bound: it
 * has finished when the receiver's last data ends the window), the end is the value after the run.
 */
final class RetransmitWindow {
    private final NativeSocket sender;
    private final TcpInfoReader reader = new TcpInfoReader();
    private long start = -1;
    private long end = -1;

    RetransmitWindow(NativeSocket sender) {
        this.sender = sender;
    }

    /**
     * Reads the retransmits when the sender enters the window or leaves it; called by the sending
     * thread before each message.
     *
     * @param phase {@link DatagramHeader#WARMUP}, {@code WINDOW} or {@code AFTER}
     * @throws NativeSocketException naming getsockopt(TCP_INFO) when it fails
     */
    void observe(int phase) throws NativeSocketException {
        if (phase == DatagramHeader.WINDOW && start < 0) {
            start = reader.read(sender).totalRetrans();
        } else if (phase == DatagramHeader.AFTER && end < 0) {
            end = reader.read(sender).totalRetrans();
            if (start < 0) {
                start = end;
            }
        }
    }

    /**
     * Reads both sockets' {@code TCP_INFO} once the run has ended; call after the sending thread ended.
     *
     * @param receiver the receiving socket, for its {@code tcpi_rcv_mss}
     * @return the figures of the run
     * @throws NativeSocketException naming getsockopt(TCP_INFO) when it fails
     */
    TcpStats stats(NativeSocket receiver) throws NativeSocketException {
        return stats(new TcpInfoReader().read(receiver).rcvMss());
    }

    /**
     * Reads the sending socket's {@code TCP_INFO} once the run has ended, where the receiving socket
     * is on another host; call after the sending thread ended.
     *
     * @param receiverMss the receiver's {@code tcpi_rcv_mss}, bytes, or -1 where it is not known here
     * @return the figures of the run
     * @throws NativeSocketException naming getsockopt(TCP_INFO) when it fails
     */
    TcpStats stats(long receiverMss) throws NativeSocketException {
        reader.read(sender);
        long total = reader.totalRetrans();
        long e = end < 0 ? total : end;
        long s = start < 0 ? e : start;
        long cwnd = reader.sndCwnd() < 0 || reader.sndMss() < 0 ? -1 : reader.sndCwnd() * reader.sndMss();
        return new TcpStats(e - s, total, cwnd, reader.rttMicros(), reader.rttVarMicros(),
                reader.pacingRate(), reader.deliveryRate(), reader.sndMss(), receiverMss);
    }
}
