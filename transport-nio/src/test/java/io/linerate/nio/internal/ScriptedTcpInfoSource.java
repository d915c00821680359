package io.linerate.nio.internal;

import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.core.spi.tcp.TcpInfoSource;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link TcpInfoSource} whose figures a test sets per local port: what the kernel would say of
 * each connection. A port without figures is a connection the kernel does not have.
 */
public final class ScriptedTcpInfoSource implements TcpInfoSource {
    /** The figures of the connection whose local port is the key. */
    static final Map<Integer, Figures> BY_LOCAL_PORT = new ConcurrentHashMap<>();

    /** One connection's figures; a read fails with {@code failure} when it is set. */
    static final class Figures {
        volatile long totalRetrans;
        volatile long sndCwnd = 10;
        volatile long sndMss = 1448;
        volatile long rcvMss = 1448;
        volatile String failure;
        volatile int reads;
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.empty();
    }

    @Override
    public TcpConnectionInfo connection(InetSocketAddress local, InetSocketAddress remote) {
        return new Connection(local.getPort(), local + " -> " + remote);
    }

    private static final class Connection implements TcpConnectionInfo {
        private final int port;
        private final String describe;
        private Figures read;

        Connection(int port, String describe) {
            this.port = port;
            this.describe = describe;
        }

        @Override
        public boolean read() throws IOException {
            Figures f = BY_LOCAL_PORT.get(port);
            read = null;
            if (f == null) {
                return false;
            }
            f.reads++;
            if (f.failure != null) {
                throw new IOException(f.failure);
            }
            read = f;
            return true;
        }

        @Override
        public String describe() {
            return describe;
        }

        @Override
        public long state() {
            return read == null ? -1 : 1;
        }

        @Override
        public long totalRetrans() {
            return read == null ? -1 : read.totalRetrans;
        }

        @Override
        public long sndCwnd() {
            return read == null ? -1 : read.sndCwnd;
        }

        @Override
        public long sndMss() {
            return read == null ? -1 : read.sndMss;
        }

        @Override
        public long rcvMss() {
            return read == null ? -1 : read.rcvMss;
        }

        @Override
        public long rttMicros() {
            return read == null ? -1 : 40;
        }

        @Override
        public long rttVarMicros() {
            return read == null ? -1 : 20;
        }

        @Override
        public long pacingRate() {
            return -1;
        }

        @Override
        public long bytesAcked() {
            return -1;
        }

        @Override
        public long deliveryRate() {
            return -1;
        }
    }
}
