package io.linerate.afpacket;

import static io.linerate.afpacket.internal.EthtoolCodec.*;

import io.linerate.jni.Errno;
import io.linerate.afpacket.internal.EthtoolCodec;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Typed ethtool requests on one interface, each encoded in Java ({@code <linux/ethtool.h>}) and
 * issued through one {@link EthtoolIoctl}. Every failure is an {@link AfPacketException} naming
 * the interface, the command and the errno; EOPNOTSUPP on an rxnfc command is a
 * {@link SteeringUnsupportedException} naming the driver.
 */
public final class Ethtool {
    private final String interfaceName;
    private final EthtoolIoctl io;

    /**
     * @param interfaceName the interface
     * @param io the ioctl to issue requests through
     */
    public Ethtool(String interfaceName, EthtoolIoctl io) {
        this.interfaceName = Objects.requireNonNull(interfaceName, "interfaceName");
        this.io = Objects.requireNonNull(io, "io");
    }

    /** @return the interface name */
    public String interfaceName() {
        return interfaceName;
    }

    /**
     * The rule table of GRXCLSRLCNT.
     *
     * @param rules rules defined now
     * @param size locations 0..size-1
     * @param specialLocations whether the driver advertises RX_CLS_LOC_SPECIAL (it may choose locations)
     */
    public record RuleTable(long rules, long size, boolean specialLocations) {}

    /** @return the driver name (ETHTOOL_GDRVINFO) */
    public String driver() throws AfPacketException {
        ByteBuffer b = driverInfoRequest();
        int rc = io.ioctl(interfaceName, b);
        if (rc < 0) {
            throw new AfPacketException(interfaceName, "ETHTOOL_GDRVINFO", -rc);
        }
        return EthtoolCodec.driver(b);
    }

    /** @return RX queues (ETHTOOL_GRXRINGS) */
    public long rxRings() throws AfPacketException {
        ByteBuffer b = ringsRequest();
        call(b);
        return data(b);
    }

    /** @return the rule table's size and use (ETHTOOL_GRXCLSRLCNT) */
    public RuleTable ruleTable() throws AfPacketException {
        ByteBuffer b = ruleCountRequest();
        call(b);
        long d = data(b);
        return new RuleTable(ruleCount(b), d & ~RX_CLS_LOC_SPECIAL & 0xffffffffL, (d & RX_CLS_LOC_SPECIAL) != 0);
    }

    /**
     * @param table the table from {@link #ruleTable()}
     * @return the used locations (ETHTOOL_GRXCLSRLALL)
     */
    public long[] ruleLocations(RuleTable table) throws AfPacketException {
        int n = (int) Math.min(table.rules(), Integer.MAX_VALUE / 8);
        if (n == 0) {
            return new long[0];
        }
        ByteBuffer b = ruleLocationsRequest(table.size(), n);
        call(b);
        int got = (int) Math.min(ruleCount(b), n);
        long[] locs = new long[got];
        for (int i = 0; i < got; i++) {
            locs[i] = ruleLocation(b, i);
        }
        return locs;
    }

    /** @return the rule at {@code location} (ETHTOOL_GRXCLSRULE) */
    public EthtoolCodec.Rule rule(long location) throws AfPacketException {
        ByteBuffer b = getRuleRequest(location);
        call(b);
        return decodeRule(b);
    }

    /**
     * Inserts an ETHER_FLOW rule comparing the ethertype only (ETHTOOL_SRXCLSRLINS).
     *
     * @param location a location, or {@link EthtoolCodec#RX_CLS_LOC_ANY} when the driver advertises special locations
     * @return the location the rule occupies (the driver's choice for RX_CLS_LOC_ANY)
     */
    public long insertEtherTypeRule(int etherType, long queue, long location) throws AfPacketException {
        ByteBuffer b = insertRequest(etherType, queue, location);
        call(b);
        return EthtoolCodec.location(b);
    }

    /** Deletes the rule at {@code location} (ETHTOOL_SRXCLSRLDEL). */
    public void deleteRule(long location) throws AfPacketException {
        call(deleteRequest(location));
    }

    private void call(ByteBuffer b) throws AfPacketException {
        int cmd = b.getInt(0);
        int rc = io.ioctl(interfaceName, b);
        if (rc >= 0) {
            return;
        }
        String name = commandName(cmd);
        if (-rc == Errno.EOPNOTSUPP) {
            String driver;
            try {
                driver = driver();
            } catch (AfPacketException e) {
                driver = "unknown: " + e.getMessage();
            }
            throw new SteeringUnsupportedException(interfaceName, name, -rc, driver);
        }
        throw new AfPacketException(interfaceName, name, -rc);
    }
}
