package io.linerate.core.spi;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads how many datagrams one UDP socket dropped: the kernel's {@code sk_drops}, the last column
 * ({@code drops}) of {@code /proc/net/udp} (IPv4 sockets) and {@code /proc/net/udp6} (IPv6), see
 * proc(5). The kernel counts there the datagrams the socket itself discarded: its receive buffer
 * was full (the reader was too slow), a bad checksum, a filter. Linux only.
 *
 * <p>Format, after the kernel's {@code udp4_format_sock} (net/ipv4/udp.c) and
 * {@code __ip6_dgram_sock_seq_show} (net/ipv6/datagram.c): one header line, then one line per
 * socket whose second field is the local address and port, {@code ADDR:PORT}. An IPv4 address is
 * the {@code __be32} printed as one 32-bit word with {@code %08X}, so its bytes appear in the
 * host's byte order (127.0.0.1 reads {@code 0100007F} on a little-endian host); an IPv6 address is
 * its four 32-bit words, each printed so; the port is {@code %04X}. The last field is
 * {@code sk_drops}, an unsigned 32-bit count since the socket was created (it wraps at 2^32).
 *
 * <p>A socket is found by its bound local address and port. A socket made for one transfer
 * counts from 0, so one reading after its receive loop ended, before it closes, is its drops over
 * the whole transfer (warm-up, window and drain); callers read it once then, never per datagram.
 */
public final class UdpSocketDrops {
    /** The table of IPv4 UDP sockets. */
    public static final Path UDP = Path.of("/proc/net/udp");
    /** The table of IPv6 UDP sockets. */
    public static final Path UDP6 = Path.of("/proc/net/udp6");
    private static final String NOT_FOUND = "no socket bound to ";

    private UdpSocketDrops() {
    }

    /**
     * The drop count of one socket, or why it is unknown.
     *
     * @param drops datagrams the socket dropped since it was created; -1 when unknown
     * @param unknownReason why the count is unknown; empty when it is known
     */
    public record Reading(long drops, String unknownReason) {
        /** @throws IllegalArgumentException for a known count below 0, or an unknown one without a reason */
        public Reading {
            Objects.requireNonNull(unknownReason, "unknownReason");
            if (unknownReason.isEmpty() ? drops < 0 : drops != -1) {
                throw new IllegalArgumentException("drops " + drops + " with reason '" + unknownReason
                        + "'; allowed: a count of 0 or above without a reason, or -1 with one");
            }
        }

        static Reading unknown(String reason) {
            return new Reading(-1, reason);
        }

        /** @return whether the count is known */
        public boolean known() {
            return drops >= 0;
        }
    }

    /**
     * Reads the drops of the UDP socket bound to {@code local} from the kernel's table of its
     * family: {@link #UDP} for IPv4, {@link #UDP6} for IPv6 and for an IPv4 address on an IPv6
     * socket (the kernel lists it as {@code ::ffff:a.b.c.d}), which is looked for when the IPv4
     * table has no such socket.
     *
     * @param local the socket's bound local address and port, as the socket reports it
     * @return its drops, or unknown with the reason: not Linux, a table is missing or cannot be
     *     read, no socket or more than one is bound to {@code local}, a line that cannot be parsed
     */
    public static Reading of(InetSocketAddress local) {
        Objects.requireNonNull(local, "local");
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return Reading.unknown("the socket's drops are read from /proc/net/udp, which only Linux has");
        }
        ByteOrder order = ByteOrder.nativeOrder();
        if (local.getAddress() instanceof Inet4Address) {
            Reading v4 = read(UDP, local, order);
            if (v4.known() || !v4.unknownReason().startsWith(NOT_FOUND)) {
                return v4;
            }
            Reading mapped = read(UDP6, local, order);
            return mapped.unknownReason().startsWith(NOT_FOUND)
                    ? Reading.unknown(NOT_FOUND + text(local) + " in " + UDP + " or " + UDP6) : mapped;
        }
        return read(UDP6, local, order);
    }

    private static Reading read(Path table, InetSocketAddress local, ByteOrder order) {
        try {
            return parse(Files.readAllLines(table), local, order, table.toString());
        } catch (IOException e) {
            return Reading.unknown("cannot read " + table + ": " + e);
        }
    }

    /**
     * @param lines the table's lines, the header first
     * @param local the socket's bound local address and port
     * @param order the byte order of the host that printed the table
     * @param table the table's name, for the reasons
     * @return the drops of the one socket bound to {@code local}, or unknown with the reason
     */
    static Reading parse(List<String> lines, InetSocketAddress local, ByteOrder order, String table) {
        long found = -1;
        int matches = 0;
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            InetSocketAddress address;
            long drops;
            try {
                if (f.length < 13) {
                    throw new IllegalArgumentException("it has " + f.length + " fields, at least 13 expected");
                }
                address = address(f[1], order);
                drops = Long.parseLong(f[f.length - 1]);
                if (drops < 0 || drops > 0xFFFF_FFFFL) {
                    throw new IllegalArgumentException("drops " + drops + " is not an unsigned 32-bit count");
                }
            } catch (IllegalArgumentException e) {
                return Reading.unknown("line " + (i + 1) + " of " + table + " cannot be parsed ("
                        + e.getMessage() + "): " + line);
            }
            if (address.equals(local)) {
                found = drops;
                matches++;
            }
        }
        if (matches == 0) {
            return Reading.unknown(NOT_FOUND + text(local) + " in " + table);
        }
        if (matches > 1) {
            return Reading.unknown(matches + " sockets bound to " + text(local) + " in " + table
                    + ": which one received is unknown");
        }
        return new Reading(found, "");
    }

    /**
     * @param field {@code ADDR:PORT} as the kernel prints it: 8 or 32 hex digits, a colon, 4 hex digits
     * @throws IllegalArgumentException naming the field when it has another shape
     */
    private static InetSocketAddress address(String field, ByteOrder order) {
        int colon = field.indexOf(':');
        String hex = colon < 0 ? "" : field.substring(0, colon);
        String port = colon < 0 ? "" : field.substring(colon + 1);
        if ((hex.length() != 8 && hex.length() != 32) || port.length() != 4) {
            throw new IllegalArgumentException("local address '" + field
                    + "' is not 8 or 32 hex digits, ':' and 4 hex digits");
        }
        ByteBuffer bytes = ByteBuffer.allocate(hex.length() / 2).order(order);
        for (int w = 0; w < hex.length(); w += 8) {
            bytes.putInt((int) Long.parseLong(hex.substring(w, w + 8), 16));
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(bytes.array()), Integer.parseInt(port, 16));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("local address '" + field + "': " + e.getMessage(), e);
        }
    }

    private static String text(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (a.getAddress() instanceof Inet4Address ? host : "[" + host + "]") + ":" + a.getPort();
    }
}
