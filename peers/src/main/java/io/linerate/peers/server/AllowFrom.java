package io.linerate.peers.server;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The client addresses a server accepts ({@code --allow-from}): a list of CIDR blocks, IPv4
 * ({@code 198.18.0.0/15}) or IPv6 ({@code 2001:2::/48}); a bare address is a block of one. An
 * IPv4 client reaching an IPv6 socket as {@code ::ffff:a.b.c.d} is matched as {@code a.b.c.d}.
 * An empty list allows every client.
 */
public final class AllowFrom {
    private final List<Block> blocks;

    private AllowFrom(List<Block> blocks) {
        this.blocks = List.copyOf(blocks);
    }

    /** @return the list that allows every client */
    public static AllowFrom anyone() {
        return new AllowFrom(List.of());
    }

    /**
     * @param csv CIDR blocks separated by commas, e.g. {@code 127.0.0.0/8,2001:2::/48}; only
     *     numeric addresses (no host names, so nothing is looked up)
     * @return the list
     * @throws IllegalArgumentException naming the block that is not an address, or whose prefix
     *     length is outside 0..32 (IPv4) or 0..128 (IPv6)
     */
    public static AllowFrom parse(String csv) {
        List<Block> out = new ArrayList<>();
        for (String part : csv.split(",", -1)) {
            String p = part.strip();
            if (p.isEmpty()) {
                throw new IllegalArgumentException("--allow-from '" + csv + "' has an empty entry; expected CIDR blocks "
                        + "separated by commas, e.g. 198.18.0.0/15,2001:2::/48");
            }
            out.add(Block.parse(p));
        }
        return new AllowFrom(out);
    }

    /** @return whether no block is given (every client is allowed) */
    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    /** @return whether {@code a} lies in one of the blocks (always true for an empty list) */
    public boolean allows(InetAddress a) {
        if (blocks.isEmpty()) {
            return true;
        }
        byte[] addr = unmapped(a.getAddress());
        for (Block b : blocks) {
            if (b.contains(addr)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return blocks.isEmpty() ? "any" : String.join(",", blocks.stream().map(Block::toString).toList());
    }

    /** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as its 4 IPv4 bytes; any other address as is. */
    private static byte[] unmapped(byte[] a) {
        if (a.length == 16) {
            for (int i = 0; i < 10; i++) {
                if (a[i] != 0) {
                    return a;
                }
            }
            if (a[10] == (byte) 0xff && a[11] == (byte) 0xff) {
                return Arrays.copyOfRange(a, 12, 16);
            }
        }
        return a;
    }

    private record Block(byte[] network, int prefix, String text) {
        static Block parse(String p) {
            int slash = p.indexOf('/');
            String host = slash < 0 ? p : p.substring(0, slash);
            if (!host.matches("[0-9A-Fa-f:.]+") || (!host.contains(":") && !host.matches("\\d{1,3}(\\.\\d{1,3}){3}"))) {
                throw new IllegalArgumentException("--allow-from entry '" + p + "' is not a numeric IPv4 or IPv6 address "
                        + "with an optional /prefix");
            }
            byte[] a;
            try {
                a = InetAddress.getByName(host).getAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("--allow-from entry '" + p + "' is not an address: " + e.getMessage(), e);
            }
            a = unmapped(a);
            int max = a.length * 8;
            int prefix = max;
            if (slash >= 0) {
                String len = p.substring(slash + 1);
                if (!len.matches("\\d{1,3}") || Integer.parseInt(len) > max) {
                    throw new IllegalArgumentException("--allow-from entry '" + p + "' has prefix length '" + len
                            + "'; allowed: 0.." + max + " for an " + (max == 32 ? "IPv4" : "IPv6") + " address");
                }
                prefix = Integer.parseInt(len);
                byte[] net = masked(a, prefix);
                if (!Arrays.equals(net, a)) {
                    // as iproute2, which refuses "Invalid prefix for given prefix length"
                    String network = address(net) + "/" + prefix;
                    throw new IllegalArgumentException("--allow-from entry '" + p + "' has host bits set past its /"
                            + prefix + " prefix; allowed: the network address, " + network + ", or " + host + "/" + max
                            + " for the one host");
                }
            }
            String text = (a.length == 4 ? ipv4(a) : host.toLowerCase(Locale.ROOT)) + "/" + prefix;
            return new Block(a, prefix, text);
        }

        private static byte[] masked(byte[] a, int prefix) {
            byte[] n = a.clone();
            for (int i = 0; i < n.length; i++) {
                int bits = Math.max(0, Math.min(8, prefix - 8 * i));
                n[i] = (byte) (n[i] & ((0xff << (8 - bits)) & 0xff));
            }
            return n;
        }

        private static String address(byte[] a) {
            try {
                return InetAddress.getByAddress(a).getHostAddress();
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }

        private static String ipv4(byte[] a) {
            try {
                return ((Inet4Address) InetAddress.getByAddress(a)).getHostAddress();
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }

        boolean contains(byte[] addr) {
            if (addr.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (addr[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (addr[full] & mask) == (network[full] & mask);
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
