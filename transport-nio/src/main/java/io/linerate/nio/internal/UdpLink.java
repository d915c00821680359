package io.linerate.nio.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.PingPongMulticast;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The UDP sockets of a ping-pong with both ends in this JVM, as sfnt-pingpong sets them up. Unicast:
 * both bound to the family's loopback address. Multicast ({@link PingPongSpec#multicast()}): both
 * bound to the group's address, each on a port of its own, each joined to the group on its
 * interface, with IP_MULTICAST_IF and IP_MULTICAST_LOOP set and read back; each end sends to the
 * group at the other end's port. With {@link PingPongSpec#connect()} each socket is connected to
 * the other before the first datagram (the addresses are known in one JVM, as sfnt-pingpong's ends
 * know them from its set-up connection); without it each end sends with sendto().
 */
final class UdpLink {
    private UdpLink() {
    }

    /**
     * Opens both sockets, adding each thing it opens to {@code opened} (the caller closes them on
     * failure).
     *
     * @throws TransferException (usage) when an interface of the spec does not exist on this host
     */
    static Link open(PingPongSpec spec, List<AutoCloseable> opened, String clientName, String serverName)
            throws IOException, TransferException {
        long timeout = spec.timeout().toNanos();
        Optional<PingPongMulticast> mc = spec.multicast();
        NetworkInterface clientIf = null;
        NetworkInterface serverIf = null;
        if (mc.isPresent()) {
            clientIf = networkInterface(mc.get().clientInterface(), spec.family());
            serverIf = networkInterface(mc.get().serverInterface(), spec.family());
        }
        InetAddress bindTo = mc.isPresent() ? mc.get().group() : spec.family().loopbackAddress();
        DatagramChannel s = socket(spec, bindTo, opened);
        DatagramChannel c = socket(spec, bindTo, opened);
        Optional<PingPongMulticast.Applied> applied = Optional.empty();
        if (mc.isPresent()) {
            join(s, mc.get(), serverIf);
            join(c, mc.get(), clientIf);
            applied = Optional.of(new PingPongMulticast.Applied(
                    name(c.getOption(StandardSocketOptions.IP_MULTICAST_IF)),
                    name(s.getOption(StandardSocketOptions.IP_MULTICAST_IF)),
                    c.getOption(StandardSocketOptions.IP_MULTICAST_LOOP),
                    s.getOption(StandardSocketOptions.IP_MULTICAST_LOOP)));
        }
        InetSocketAddress toServer = new InetSocketAddress(bindTo, port(s));
        InetSocketAddress toClient = new InetSocketAddress(bindTo, port(c));
        Endpoint ce;
        Endpoint se;
        if (spec.connect()) {
            c.connect(toServer);
            s.connect(toClient);
            ce = Endpoint.open(clientName, c, c, true, spec.clientMuxer(), spec.idleOf(spec.clientMuxer()), timeout);
            opened.add(ce);
            se = Endpoint.open(serverName, s, s, true, spec.serverMuxer(), spec.idleOf(spec.serverMuxer()), timeout);
        } else {
            ce = Endpoint.openUnconnected(clientName, c, toServer, spec.clientMuxer(), spec.idleOf(spec.clientMuxer()),
                    timeout);
            opened.add(ce);
            se = Endpoint.openUnconnected(serverName, s, toClient, spec.serverMuxer(), spec.idleOf(spec.serverMuxer()),
                    timeout);
        }
        opened.add(se);
        return new Link(ce, se, Link.options(spec, c, true, false, Optional.empty()), applied, opened);
    }

    private static DatagramChannel socket(PingPongSpec spec, InetAddress bindTo, List<AutoCloseable> opened)
            throws IOException {
        DatagramChannel ch = DatagramChannel.open(Sockets.protocolFamily(spec.family()));
        opened.add(ch);
        Sockets.apply(ch, spec.sendBufferBytes(), spec.receiveBufferBytes(), true, spec.trafficClass(), false, false);
        ch.bind(new InetSocketAddress(bindTo, 0));
        return ch;
    }

    private static void join(DatagramChannel ch, PingPongMulticast mc, NetworkInterface nif) throws IOException {
        ch.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
        ch.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, mc.loop());
        try {
            ch.join(mc.group(), nif);
        } catch (IOException e) {
            throw new IOException("cannot join group " + mc.group().getHostAddress() + " on interface "
                    + nif.getName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param name the interface's name, or empty for the interface holding the family's loopback
     *     address
     * @throws TransferException (usage) naming the interface and the ones this host has
     */
    static NetworkInterface networkInterface(Optional<String> name, AddressFamily family)
            throws SocketException, TransferException {
        NetworkInterface nif = name.isPresent() ? NetworkInterface.getByName(name.get())
                : NetworkInterface.getByInetAddress(family.loopbackAddress());
        if (nif == null) {
            List<String> names = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                    .map(NetworkInterface::getName).sorted().toList();
            throw new TransferException(name.map(n -> "mcastintf " + n + " is not an interface of this host")
                    .orElse("no interface holds " + family.loopbackAddress().getHostAddress() + " to join the group "
                            + "on") + "; allowed: one of " + String.join(", ", names), null, true);
        }
        return nif;
    }

    /** @return the interface's name, {@code (none)} when the socket reads back no interface */
    private static String name(NetworkInterface nif) {
        return nif == null ? "(none)" : nif.getName();
    }

    private static int port(DatagramChannel ch) throws IOException {
        return ((InetSocketAddress) ch.getLocalAddress()).getPort();
    }
}
