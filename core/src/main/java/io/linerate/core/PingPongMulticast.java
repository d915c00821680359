package io.linerate.core;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Optional;

/**
 * sfnt-pingpong's multicast options of a UDP ping-pong ({@code --mcast}, {@code --mcastintf},
 * {@code --mcastloop}). Both ends bind to the group address, each on a port of its own, join the
 * group and send to the group at the other end's port: the ping and the pong both travel as
 * multicast. Interfaces are names as {@link java.net.NetworkInterface#getByName} takes them; they
 * are looked up where the ends open, as they belong to the host that runs the ends.
 *
 * @param group the group both ends join and send to: IPv4 224.0.0.0/4 or IPv6 ff00::/8 (RFC 5771,
 *     RFC 4291 2.7)
 * @param clientInterface the interface the client joins the group on and sends from
 *     (IP_MULTICAST_IF), or empty for the interface of the family's loopback address
 * @param serverInterface as {@code clientInterface}, for the echo server
 * @param loop IP_MULTICAST_LOOP on both ends: whether a datagram an end sends is also delivered
 *     to the sending host's own members of the group (sfnt-pingpong's default: off)
 */
public record PingPongMulticast(InetAddress group, Optional<String> clientInterface, Optional<String> serverInterface,
                                boolean loop) {
    /** The group sfnt-pingpong uses over IPv4 when an interface is given without a group. */
    public static final String DEFAULT_IPV4_GROUP = "224.1.2.48";
    /** The group sfnt-pingpong uses over IPv6 when an interface is given without a group. */
    public static final String DEFAULT_IPV6_GROUP = "ff05::142";

    /** @throws IllegalArgumentException naming the value and the allowed range */
    public PingPongMulticast {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(clientInterface, "clientInterface");
        Objects.requireNonNull(serverInterface, "serverInterface");
        if (!group.isMulticastAddress()) {
            throw new IllegalArgumentException("mcast group " + group.getHostAddress() + " is not a multicast address; "
                    + "allowed: 224.0.0.0/4 (IPv4) or ff00::/8 (IPv6)");
        }
        clientInterface.ifPresent(PingPongMulticast::checkInterfaceName);
        serverInterface.ifPresent(PingPongMulticast::checkInterfaceName);
    }

    /**
     * Reads the options as sfnt-pingpong's command line gives them.
     *
     * @param group the group as an address literal, or null for sfnt-pingpong's default of the
     *     family ({@value #DEFAULT_IPV4_GROUP} or {@value #DEFAULT_IPV6_GROUP})
     * @param interfaces {@code IF} for both ends or {@code CLIENT_IF;SERVER_IF} (sfnt-pingpong's
     *     order: the first value is the client's), or null for the loopback interface at both ends
     * @param loop IP_MULTICAST_LOOP on both ends
     * @param family the ping-pong's family, for the default group
     * @return the options
     * @throws IllegalArgumentException naming the value and the allowed range
     */
    public static PingPongMulticast parse(String group, String interfaces, boolean loop, AddressFamily family) {
        String g = group != null ? group.strip()
                : family == AddressFamily.IPV4 ? DEFAULT_IPV4_GROUP : DEFAULT_IPV6_GROUP;
        Optional<String> client = Optional.empty();
        Optional<String> server = Optional.empty();
        if (interfaces != null) {
            String[] parts = interfaces.split(";", -1);
            if (parts.length > 2) {
                throw new IllegalArgumentException("mcastintf '" + interfaces + "' has " + parts.length
                        + " values; allowed: IF (both ends) or CLIENT_IF;SERVER_IF");
            }
            client = Optional.of(parts[0].strip());
            server = Optional.of(parts[parts.length - 1].strip());
        }
        return new PingPongMulticast(literal(g), client, server, loop);
    }

    /**
     * The multicast options as read back from the two sockets after they were set.
     *
     * @param clientInterface the name of the client's IP_MULTICAST_IF interface
     * @param serverInterface the name of the echo server's IP_MULTICAST_IF interface
     * @param clientLoop the client's IP_MULTICAST_LOOP
     * @param serverLoop the echo server's IP_MULTICAST_LOOP
     */
    public record Applied(String clientInterface, String serverInterface, boolean clientLoop, boolean serverLoop) {
        /** @throws NullPointerException for a missing interface name */
        public Applied {
            Objects.requireNonNull(clientInterface, "clientInterface");
            Objects.requireNonNull(serverInterface, "serverInterface");
        }
    }

    /** @return whether the group is of {@code family} */
    public boolean isOf(AddressFamily family) {
        return (group instanceof Inet4Address) == (family == AddressFamily.IPV4);
    }

    private static InetAddress literal(String text) {
        // an address literal only: a name would be looked up in DNS, which sfnt-pingpong does not do either
        if (!text.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
            throw new IllegalArgumentException("mcast group '" + text + "' is not an address literal; allowed: "
                    + "an IPv4 address in 224.0.0.0/4 or an IPv6 address in ff00::/8");
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("mcast group '" + text + "' is not an address literal; allowed: "
                    + "an IPv4 address in 224.0.0.0/4 or an IPv6 address in ff00::/8", e);
        }
    }

    private static void checkInterfaceName(String name) {
        // Linux's IFNAMSIZ is 16 bytes with the terminating NUL (include/uapi/linux/if.h)
        if (name.isEmpty() || name.length() > 15 || name.contains(";") || name.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("mcastintf '" + name + "' is not an interface name; allowed: 1..15 "
                    + "characters without blanks or ';'");
        }
    }

    /** @return {@code group 239.1.2.3, client interface lo, server interface lo, loop off} */
    @Override
    public String toString() {
        return "group " + group.getHostAddress() + ", client interface " + clientInterface.orElse("(loopback)")
                + ", server interface " + serverInterface.orElse("(loopback)") + ", loop " + (loop ? "on" : "off");
    }
}
