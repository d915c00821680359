package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.afpacket.internal.EthtoolCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flow Director (ethtool ntuple) rules that steer each ethertype to its own RX queue, managed as
 * ethtool's own rule manager does: RX_CLS_LOC_ANY is used only when the driver advertises
 * RX_CLS_LOC_SPECIAL (ice and mlx5 answer it with ENOSPC, i40e, ixgbe and igb with EINVAL);
 * otherwise the table size and the used locations are read and the highest free location is taken.
 * An explicit location that is in use is refused, because drivers silently overwrite it.
 *
 * <p>Every rule this object inserted is deleted on {@link #close()} and on every failure of
 * {@link #install}; rules that were there before are never touched.
 */
public final class FlowSteering implements AutoCloseable {
    /** Smallest ethertype (values below are IEEE 802.3 lengths). */
    public static final int MIN_ETHERTYPE = 0x0600;

    /**
     * One requested rule.
     *
     * @param etherType 0x0600..0xffff
     * @param queue RX queue, 0..rings-1
     * @param location an explicit location, or empty to allocate one
     */
    public record Request(int etherType, long queue, OptionalLong location) {
        /** @throws IllegalArgumentException naming the value and the allowed range */
        public Request {
            checkEtherType(etherType);
            if (queue < 0) {
                throw new IllegalArgumentException("queue " + queue + " is out of range; allowed: 0 or more");
            }
            Objects.requireNonNull(location, "location");
        }

        /** A request with an allocated location. */
        public static Request of(int etherType, long queue) {
            return new Request(etherType, queue, OptionalLong.empty());
        }
    }

    /** An installed rule: its location, the ethertype it matches and the queue it steers to. */
    public record Installed(long location, int etherType, long queue) {}

    private static final Logger LOG = LoggerFactory.getLogger(FlowSteering.class);

    private final Ethtool ethtool;
    private final List<Installed> installed = new ArrayList<>();
    private boolean closed;

    private FlowSteering(Ethtool ethtool) {
        this.ethtool = ethtool;
    }

    /**
     * Installs one rule per request, in order.
     *
     * @param ethtool the interface to install on
     * @param requests the rules
     * @return the installed rules, to {@link #close()} when done
     * @throws SteeringUnsupportedException if the interface has no rule table (veth)
     * @throws AfPacketException if a request fails, with every rule installed so far deleted
     *     (failures of those deletions are attached as suppressed exceptions); a usage error when a
     *     queue does not exist, a location is taken or out of range, or the table is full
     */
    public static FlowSteering install(Ethtool ethtool, List<Request> requests) throws AfPacketException {
        FlowSteering s = new FlowSteering(ethtool);
        try {
            s.installAll(requests);
            return s;
        } catch (AfPacketException | RuntimeException e) {
            s.removeAll(e);
            throw e;
        }
    }

    private void installAll(List<Request> requests) throws AfPacketException {
        String ifname = ethtool.interfaceName();
        long rings = ethtool.rxRings();
        for (Request r : requests) {
            if (r.queue() >= rings) {
                throw new AfPacketException(ifname, "ETHTOOL_GRXRINGS", 22, String.format(Locale.ROOT,
                        "queue %d for ethertype 0x%04x does not exist; allowed: 0..%d", r.queue(), r.etherType(), rings - 1), true);
            }
        }
        Ethtool.RuleTable table = ethtool.ruleTable();
        Set<Long> used = new HashSet<>();
        for (long loc : ethtool.ruleLocations(table)) {
            used.add(loc);
        }
        for (Request r : requests) {
            long want;
            if (r.location().isPresent()) {
                want = r.location().getAsLong();
                if (want < 0 || want >= table.size()) {
                    throw new AfPacketException(ifname, "ETHTOOL_SRXCLSRLINS", 22, String.format(Locale.ROOT,
                            "rule location %d is out of range; allowed: 0..%d", want, table.size() - 1), true);
                }
                if (used.contains(want)) {
                    throw new AfPacketException(ifname, "ETHTOOL_SRXCLSRLINS", 17, String.format(Locale.ROOT,
                            "rule location %d is taken; choose a free one or let linerate allocate", want), true);
                }
            } else if (table.specialLocations()) {
                want = EthtoolCodec.RX_CLS_LOC_ANY;
            } else {
                want = highestFree(table.size(), used);
                if (want < 0) {
                    throw new AfPacketException(ifname, "ETHTOOL_SRXCLSRLINS", 28, String.format(Locale.ROOT,
                            "the rule table is full (%d of %d locations used)", used.size(), table.size()), true);
                }
            }
            long got = ethtool.insertEtherTypeRule(r.etherType(), r.queue(), want);
            if (want != EthtoolCodec.RX_CLS_LOC_ANY) {
                got = want;
            }
            installed.add(new Installed(got, r.etherType(), r.queue()));
            used.add(got);
            LOG.debug("installed a Flow Director rule on {} at location {}: ethertype 0x{} to RX queue {}", ifname, got,
                    Integer.toHexString(r.etherType()), r.queue());
        }
    }

    /** @return the highest location in 0..size-1 not in {@code used}, or -1 */
    static long highestFree(long size, Set<Long> used) {
        for (long loc = size - 1; loc >= 0; loc--) {
            if (!used.contains(loc)) {
                return loc;
            }
        }
        return -1;
    }

    /** @return the rules installed by this object and not yet deleted */
    public List<Installed> installed() {
        return Collections.unmodifiableList(new ArrayList<>(installed));
    }

    /** @return the interface the rules are on */
    public String interfaceName() {
        return ethtool.interfaceName();
    }

    /**
     * Deletes every rule this object installed, newest first; idempotent.
     *
     * @throws AfPacketException for the first deletion that failed (others suppressed); every
     *     deletion is attempted
     */
    @Override
    public void close() throws AfPacketException {
        if (closed) {
            return;
        }
        closed = true;
        AfPacketException first = removeAll(null);
        if (first != null) {
            throw first;
        }
    }

    private AfPacketException removeAll(Exception cause) {
        AfPacketException first = null;
        for (int i = installed.size() - 1; i >= 0; i--) {
            Installed r = installed.get(i);
            try {
                ethtool.deleteRule(r.location());
                installed.remove(i);
                LOG.debug("removed the Flow Director rule on {} at location {}", ethtool.interfaceName(), r.location());
            } catch (AfPacketException e) {
                LOG.debug("cannot remove the Flow Director rule on {} at location {}: {}", ethtool.interfaceName(),
                        r.location(), e.getMessage());
                if (cause != null) {
                    cause.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }

    /** @throws IllegalArgumentException unless {@code 0x0600 <= etherType <= 0xffff} */
    public static void checkEtherType(int etherType) {
        RawTransferSpec.checkEtherType(etherType);
    }
}
