package io.linerate.nio.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.PingPongMulticast;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.NetworkChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A client end and echo-server end in this JVM, over loopback (UDP as {@link UdpLink} sets it up),
 * a Unix-domain socket in a fresh temporary directory (the socket file and directory are deleted on
 * close), or two pipes.
 * Options are set before connect and read back after it from the client's socket.
 */
public final class Link implements AutoCloseable {
    private static final String CLIENT = "linerate-pingpong-client";
    private static final String SERVER = "linerate-pingpong-server";
    private final Endpoint client;
    private final Endpoint server;
    private final AppliedOptions options;
    private final Optional<PingPongMulticast.Applied> multicast;
    private final List<AutoCloseable> channels;

    private Link(Endpoint client, Endpoint server, AppliedOptions options, List<AutoCloseable> channels) {
        this(client, server, options, Optional.empty(), channels);
    }

    Link(Endpoint client, Endpoint server, AppliedOptions options, Optional<PingPongMulticast.Applied> multicast,
         List<AutoCloseable> channels) {
        this.client = client;
        this.server = server;
        this.options = options;
        this.multicast = multicast;
        this.channels = channels;
    }

    /** @return the client's end */
    public Endpoint client() {
        return client;
    }

    /** @return the echo server's end */
    public Endpoint server() {
        return server;
    }

    /** @return the options as requested and as read back from the client's socket */
    public AppliedOptions options() {
        return options;
    }

    /** @return the multicast options as read back from both sockets, for a multicast spec */
    public Optional<PingPongMulticast.Applied> multicast() {
        return multicast;
    }

    /**
     * Opens the link of {@code spec}'s protocol.
     *
     * @throws TransferException when set-up fails (usage error when the protocol is unsupported);
     *     everything opened so far is closed
     */
    public static Link open(PingPongSpec spec) throws TransferException {
        return open(spec, null);
    }

    /**
     * As {@link #open(PingPongSpec)}, creating a Unix socket's temporary directory under
     * {@code tempParent} (the JVM's temporary directory when null).
     */
    public static Link open(PingPongSpec spec, Path tempParent) throws TransferException {
        PingPongProtocol p = spec.protocol();
        if (p.unsupportedReason().isPresent()) {
            throw new TransferException(p.unsupportedReason().get(), null, true);
        }
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            return switch (p) {
                case TCP, UNIX_STREAM -> streamLink(spec, tempParent, opened);
                case UDP -> UdpLink.open(spec, opened, CLIENT, SERVER);
                case PIPE -> pipeLink(spec, opened);
                default -> throw new TransferException("protocol " + p.label() + " is not supported", null, true);
            };
        } catch (IOException e) {
            Resources.closeQuietly(reversed(opened));
            throw new TransferException("cannot set up the " + p.label() + " ping-pong: " + e.getMessage(), e);
        } catch (TransferException | RuntimeException e) {
            Resources.closeQuietly(reversed(opened));
            throw e;
        }
    }

    /**
     * A connected pair of TCP sockets over loopback, or of Unix stream sockets through a socket file
     * in a temporary directory, which is deleted once they are connected (or on failure).
     */
    private static Link streamLink(PingPongSpec spec, Path tempParent, List<AutoCloseable> opened)
            throws IOException, TransferException {
        boolean tcp = spec.protocol() == PingPongProtocol.TCP;
        long timeout = spec.timeout().toNanos();
        Path dir = null;
        Path socketFile = null;
        try {
            ServerSocketChannel listener;
            SocketChannel c;
            if (tcp) {
                listener = ServerSocketChannel.open(Sockets.protocolFamily(spec.family()));
                opened.add(listener);
                Sockets.apply(listener, 0, spec.receiveBufferBytes(), false, 0, false, false);
                listener.bind(new InetSocketAddress(spec.family().loopbackAddress(), 0), 1);
                c = SocketChannel.open(Sockets.protocolFamily(spec.family()));
            } else {
                dir = tempParent == null ? Files.createTempDirectory("linerate-pingpong")
                        : Files.createTempDirectory(tempParent, "linerate-pingpong");
                socketFile = dir.resolve("echo.sock");
                listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                opened.add(listener);
                listener.bind(UnixDomainSocketAddress.of(socketFile), 1);
                c = SocketChannel.open(StandardProtocolFamily.UNIX);
            }
            opened.add(c);
            Sockets.apply(c, spec.sendBufferBytes(), spec.receiveBufferBytes(), tcp, spec.trafficClass(), tcp, spec.noDelay());
            SocketChannel s = Sockets.connectPair(listener, c, timeout);
            opened.add(s);
            Sockets.apply(s, spec.sendBufferBytes(), spec.receiveBufferBytes(), tcp, spec.trafficClass(), tcp, spec.noDelay());
            listener.close();
            Resources.deleteQuietly(socketFile, dir);
            AppliedOptions o = options(spec, c, tcp, tcp ? c.getOption(StandardSocketOptions.TCP_NODELAY) : false,
                    tcp ? SocketMss.ofPair(spec.family(), c, s) : Optional.empty());
            Endpoint ce = Endpoint.open(CLIENT, c, c, false, spec.clientMuxer(), spec.idleOf(spec.clientMuxer()), timeout);
            opened.add(ce);
            Endpoint se = Endpoint.open(SERVER, s, s, false, spec.serverMuxer(), spec.idleOf(spec.serverMuxer()), timeout);
            opened.add(se);
            return new Link(ce, se, o, opened);
        } finally {
            Resources.deleteQuietly(socketFile, dir);
        }
    }

    /** Two pipes, one each way; no socket options apply. */
    private static Link pipeLink(PingPongSpec spec, List<AutoCloseable> opened) throws IOException {
        long timeout = spec.timeout().toNanos();
        Pipe toServer = Pipe.open();
        opened.add(toServer.sink());
        opened.add(toServer.source());
        Pipe toClient = Pipe.open();
        opened.add(toClient.sink());
        opened.add(toClient.source());
        AppliedOptions o = new AppliedOptions(spec.trafficClass(), 0, spec.sendBufferBytes(), 0,
                spec.receiveBufferBytes(), 0, spec.noDelay(), false);
        Endpoint ce = Endpoint.open(CLIENT, toClient.source(), toServer.sink(), false,
                spec.clientMuxer(), spec.idleOf(spec.clientMuxer()), timeout);
        opened.add(ce);
        Endpoint se = Endpoint.open(SERVER, toServer.source(), toClient.sink(), false,
                spec.serverMuxer(), spec.idleOf(spec.serverMuxer()), timeout);
        opened.add(se);
        return new Link(ce, se, o, opened);
    }

    static AppliedOptions options(PingPongSpec spec, NetworkChannel c, boolean ip, boolean noDelay,
                                          Optional<TcpMss> tcpMss) throws IOException {
        return new AppliedOptions(spec.trafficClass(), ip ? c.getOption(StandardSocketOptions.IP_TOS) : 0,
                spec.sendBufferBytes(), Sockets.appliedBuffer(c, StandardSocketOptions.SO_SNDBUF),
                spec.receiveBufferBytes(), Sockets.appliedBuffer(c, StandardSocketOptions.SO_RCVBUF),
                spec.noDelay(), noDelay, tcpMss);
    }

    private static List<AutoCloseable> reversed(List<AutoCloseable> l) {
        List<AutoCloseable> r = new ArrayList<>(l);
        java.util.Collections.reverse(r);
        return r;
    }

    /** Closes both ends and every channel. */
    @Override
    public void close() {
        Resources.closeQuietly(reversed(channels));
    }
}
