package io.linerate.socket.internal;

import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.TcpInfoReader;

/**
 * A native TCP socket's {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) read with
 * {@code getsockopt(TCP_INFO)} through a {@link TcpInfoReader} of its own, behind core's
 * {@link TcpConnectionInfo}, so that core's ping-pong sweep reads a native end as it reads an NIO
 * one through sock_diag. No allocation per {@link #read}. Not thread-safe: one thread at a time.
 */
final class NativeTcpConnectionInfo implements TcpConnectionInfo {
    private final int fd;
    private final TcpInfoReader reader = new TcpInfoReader();

    NativeTcpConnectionInfo(NativeSocket socket) {
        this(socket.fd());
    }

    /** @param fd an open TCP socket's descriptor, which stays open while this is read */
    NativeTcpConnectionInfo(int fd) {
        this.fd = fd;
    }

    /** @throws NativeSocketException naming {@code getsockopt(TCP_INFO)} and the errno when it fails */
    @Override
    public boolean read() throws NativeSocketException {
        reader.read(fd);
        return true;
    }

    @Override
    public String describe() {
        return "native socket fd " + fd;
    }

    /** @return -1: the native reader does not decode {@code tcpi_state} */
    @Override
    public long state() {
        return -1;
    }

    @Override
    public long totalRetrans() {
        return reader.totalRetrans();
    }

    @Override
    public long sndCwnd() {
        return reader.sndCwnd();
    }

    @Override
    public long sndMss() {
        return reader.sndMss();
    }

    @Override
    public long rcvMss() {
        return reader.rcvMss();
    }

    @Override
    public long rttMicros() {
        return reader.rttMicros();
    }

    @Override
    public long rttVarMicros() {
        return reader.rttVarMicros();
    }

    @Override
    public long pacingRate() {
        return reader.pacingRate();
    }

    @Override
    public long bytesAcked() {
        return reader.bytesAcked();
    }

    @Override
    public long deliveryRate() {
        return reader.deliveryRate();
    }
}
