package io.linerate.afpacket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A software ntuple rule table answering SIOCETHTOOL requests as a driver would. It decodes
 * requests with its own literal x86-64 offsets (not the encoder's constants), so encoder mistakes
 * show up as wrong behaviour.
 */
final class FakeRxnfcTable implements EthtoolIoctl {
    static final int EINVAL = 22;
    static final int ENOSPC = 28;
    static final int ENOENT = 2;
    static final int EOPNOTSUPP = 95;
    static final int EMSGSIZE = 90;
    static final long LOC_ANY = 0xffffffffL;

    /** How a driver answers; facts from the issue, table sizes arbitrary. */
    enum Profile {
        ICE("ice", false, -ENOSPC),
        MLX5("mlx5_core", false, -ENOSPC),
        I40E("i40e", false, -EINVAL),
        IXGBE("ixgbe", false, -EINVAL),
        IGB("igb", false, -EINVAL),
        /** A driver advertising RX_CLS_LOC_SPECIAL: it chooses the lowest free location for LOC_ANY. */
        SPECIAL("special", true, 0),
        /** No ntuple support at all. */
        VETH("veth", false, -EOPNOTSUPP);

        final String driver;
        final boolean special;
        final int locAnyAnswer;

        Profile(String driver, boolean special, int locAnyAnswer) {
            this.driver = driver;
            this.special = special;
            this.locAnyAnswer = locAnyAnswer;
        }
    }

    final Profile profile;
    final int size;
    final int rings;
    /** Location to the 168 bytes of its struct ethtool_rx_flow_spec. */
    final TreeMap<Long, byte[]> rules = new TreeMap<>();
    /** Every location an insert asked for, in order. */
    final List<Long> insertLocations = new ArrayList<>();
    final List<String> log = new ArrayList<>();
    private int inserts;
    private int failInsertNumber = -1;
    private int failInsertErrno;
    private long failDeleteLocation = -1;
    private int failDeleteErrno;

    FakeRxnfcTable(Profile profile, int size, int rings) {
        this.profile = profile;
        this.size = size;
        this.rings = rings;
    }

    /** Makes the n-th insert (1-based) fail with errno. */
    FakeRxnfcTable failInsert(int n, int errno) {
        failInsertNumber = n;
        failInsertErrno = errno;
        return this;
    }

    /** Makes deleting location fail with errno. */
    FakeRxnfcTable failDelete(long location, int errno) {
        failDeleteLocation = location;
        failDeleteErrno = errno;
        return this;
    }

    /** Puts a rule there as another tool would have. */
    FakeRxnfcTable preinstall(long location, int etherType, long queue) {
        byte[] fs = new byte[168];
        ByteBuffer b = ByteBuffer.wrap(fs).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, 0x12);
        b.put(16, (byte) (etherType >>> 8)).put(17, (byte) etherType);
        b.put(88, (byte) 0xff).put(89, (byte) 0xff);
        b.putLong(152, queue);
        b.putInt(160, (int) location);
        rules.put(location, fs);
        return this;
    }

    Map<Long, byte[]> snapshot() {
        TreeMap<Long, byte[]> copy = new TreeMap<>();
        rules.forEach((k, v) -> copy.put(k, v.clone()));
        return copy;
    }

    /**
     * Where the table steers a frame: the queue of the lowest-located matching rule, -1 if none.
     * A set mask bit means "compare this bit", as in the ioctl.
     */
    long steer(byte[] dst, byte[] src, int etherType) {
        byte[] hdr = new byte[14];
        System.arraycopy(dst, 0, hdr, 0, 6);
        System.arraycopy(src, 0, hdr, 6, 6);
        hdr[12] = (byte) (etherType >>> 8);
        hdr[13] = (byte) etherType;
        for (byte[] fs : rules.values()) {
            boolean match = true;
            for (int i = 0; i < 14 && match; i++) {
                int value = fs[4 + i];
                int mask = fs[76 + i];
                match = ((hdr[i] ^ value) & mask) == 0;
            }
            if (match) {
                return ByteBuffer.wrap(fs).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(152);
            }
        }
        return -1;
    }

    @Override
    public int ioctl(String interfaceName, ByteBuffer req) {
        if (req.order() != java.nio.ByteOrder.nativeOrder() || !req.isDirect()) {
            throw new AssertionError("requests must be direct and in native order");
        }
        int cmd = req.getInt(0);
        log.add(String.format("0x%02x", cmd));
        if (cmd == 0x03) {
            byte[] name = profile.driver.getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < name.length; i++) {
                req.put(4 + i, name[i]);
            }
            return 0;
        }
        if (profile == Profile.VETH) {
            return -EOPNOTSUPP;
        }
        switch (cmd) {
            case 0x2d -> {
                req.putLong(8, rings);
                return 0;
            }
            case 0x2e -> {
                req.putLong(8, size | (profile.special ? 0x80000000L : 0));
                req.putInt(184, rules.size());
                return 0;
            }
            case 0x30 -> {
                int room = req.getInt(184);
                if (room < rules.size() || req.capacity() < 188 + 4 * rules.size()) {
                    return -EMSGSIZE;
                }
                int i = 0;
                for (long loc : rules.keySet()) {
                    req.putInt(188 + 4 * i++, (int) loc);
                }
                req.putInt(184, rules.size());
                req.putLong(8, size);
                return 0;
            }
            case 0x2f -> {
                long loc = Integer.toUnsignedLong(req.getInt(176));
                byte[] fs = rules.get(loc);
                if (fs == null) {
                    return -ENOENT;
                }
                for (int i = 0; i < 168; i++) {
                    req.put(16 + i, fs[i]);
                }
                return 0;
            }
            case 0x31 -> {
                long loc = Integer.toUnsignedLong(req.getInt(176));
                if (loc == failDeleteLocation) {
                    return -failDeleteErrno;
                }
                return rules.remove(loc) == null ? -ENOENT : 0;
            }
            case 0x32 -> {
                inserts++;
                long loc = Integer.toUnsignedLong(req.getInt(176));
                insertLocations.add(loc);
                if (inserts == failInsertNumber) {
                    return -failInsertErrno;
                }
                if (req.getInt(16) != 0x12) {
                    return -EINVAL;
                }
                if (req.getLong(168) >= rings) {
                    return -EINVAL;
                }
                if (loc == LOC_ANY) {
                    if (!profile.special) {
                        return profile.locAnyAnswer;
                    }
                    loc = -1;
                    for (long l = 0; l < size; l++) {
                        if (!rules.containsKey(l)) {
                            loc = l;
                            break;
                        }
                    }
                    if (loc < 0) {
                        return -ENOSPC;
                    }
                    req.putInt(176, (int) loc);
                } else if (loc >= size) {
                    return -EINVAL;
                }
                byte[] fs = new byte[168];
                for (int i = 0; i < 168; i++) {
                    fs[i] = req.get(16 + i);
                }
                ByteBuffer.wrap(fs).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(160, (int) loc);
                rules.put(loc, fs); // silently overwrites, as drivers do
                return 0;
            }
            default -> {
                return -EOPNOTSUPP;
            }
        }
    }
}
