package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.afpacket.internal.Native;
import io.linerate.afpacket.internal.Sysfs;
import io.linerate.core.Clock;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Raw Ethernet frames from one interface to another through AF_PACKET: the two ends of a cable,
 * or of a veth pair. The sender uses sendmmsg in batches on a socket with PACKET_QDISC_BYPASS, or
 * a TPACKET_V2 TX ring; the receiver reads one TPACKET_V3 ring per ethertype, with a block retire
 * timeout so every wait is bounded. Per-frame RX stamps are software stamps (SO_TIMESTAMPING), or hardware ones when the
 * RX interface accepts SIOCSHWTSTAMP with HWTSTAMP_FILTER_ALL (its previous setting is restored).
 *
 * <p>Lifecycle of {@link #run}: validate the interfaces, install Flow Director rules if asked,
 * open the RX rings and the TX socket, take the interface counter baselines (one place, before the
 * first frame), send for warm-up + duration, let the receiver drain frames still in flight (bounded
 * by the drain timeout), take the final counter readings, and release every rule, ring and socket,
 * on every path. With both ends here the sender is paced by the receiver's credit
 * ({@link RawTransferSpec#unpaced()} turns that off), so linerate's own RX ring does not overflow;
 * the sender's report says which pacing governed ({@link RawPacing}). A spec with one end ({@link RawTransferSpec#txOnly}, {@link RawTransferSpec#rxOnly})
 * opens only that end: the sender sends for warm-up + duration, the receiver listens as long.
 */
public final class RawTransfer {
    /** Ethernet header bytes before the payload. */
    private static final int ETH_HLEN = 14;
    /** A locally administered address, for an interface whose own cannot be read. */
    private static final byte[] FALLBACK_MAC = {2, 0, 0, 0, 0, 1};

    private RawTransfer() {}

    /** Runs {@code spec} on the system clock without interval callbacks; see {@link #run(RawTransferSpec, Clock, Consumer)}. */
    public static RawResult run(RawTransferSpec spec) throws TransferException {
        return run(spec, Clock.system(), i -> { });
    }

    /**
     * Runs one raw transfer.
     *
     * @param spec what to send
     * @param clock time source of every reading
     * @param intervals receives one sample per interval, from the calling thread
     * @return what each end in the run counted; an interface that failed mid-run gives a result with
     *     {@code error} set, {@code valid=false} and the counts up to the failure
     * @throws TransferException if the run cannot start: AF_PACKET unavailable, an unknown or down
     *     interface, an MTU below the frame size, no permission, steering refused (all usage errors
     *     except the first), or a socket that cannot be set up; nothing stays open or installed
     */
    public static RawResult run(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals) throws TransferException {
        return run(spec, clock, intervals, null);
    }

    /**
     * Runs one raw transfer with Flow Director requests going through {@code ethtool} instead of
     * the kernel's SIOCETHTOOL (a software rule table in tests); otherwise as
     * {@link #run(RawTransferSpec, Clock, Consumer)}.
     *
     * @param ethtool where steering requests go; null for the kernel
     */
    public static RawResult run(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals, EthtoolIoctl ethtool)
            throws TransferException {
        return run(spec, clock, intervals, ethtool, () -> { });
    }

    /** As {@link #run(RawTransferSpec, Clock, Consumer, EthtoolIoctl)}, with {@code listening} run once the receiving end is open. */
    static RawResult run(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals, EthtoolIoctl ethtool,
                         Runnable listening) throws TransferException {
        Optional<String> why = AfPacket.unavailabilityCause();
        if (why.isPresent()) {
            throw new TransferException("AF_PACKET is not available: " + why.get(), null, why.get().contains("CAP_NET_RAW"));
        }
        Interface tx = spec.txInterface().isPresent() ? checkInterface(spec.txInterface().get(), spec.frameSize()) : null;
        Interface rx = spec.rxInterface().isPresent() ? checkInterface(spec.rxInterface().get(), spec.frameSize()) : null;
        byte[] dst = spec.destinationMac().orElseGet(() -> macOf(spec.rxInterface().orElseThrow()));
        byte[] src = spec.sourceMac().orElseGet(() -> spec.txInterface().map(RawTransfer::macOf).orElse(FALLBACK_MAC));
        return new RawRun(spec, clock, intervals, tx, rx, dst, src, ethtool, listening).execute();
    }

    private static byte[] macOf(String ifname) {
        try {
            return Sysfs.address(ifname).orElse(FALLBACK_MAC);
        } catch (IOException e) {
            return FALLBACK_MAC;
        }
    }

    /** An interface that exists and is up: its name, index and MTU. */
    record Interface(String name, int index, int mtu) {
        /** @return the largest frame it carries, L2 without FCS */
        int maxFrame() {
            return mtu + ETH_HLEN;
        }
    }

    private static Interface checkInterface(String ifname, int frameSize) throws TransferException {
        ByteBuffer name = EthtoolIoctl.cString(ifname);
        int idx = Native.ifindex(Native.address(name));
        if (idx < 0 || !Sysfs.exists(ifname)) {
            throw new TransferException("interface " + ifname + " does not exist; name an existing interface", null, true);
        }
        try {
            if ((Sysfs.flags(ifname) & Sysfs.IFF_UP) == 0) {
                throw new TransferException("interface " + ifname + " is down; bring it up first", null, true);
            }
            int mtu = Sysfs.mtu(ifname);
            if (frameSize > mtu + ETH_HLEN) {
                throw new TransferException("frame size " + frameSize + " bytes does not fit interface " + ifname
                        + " with MTU " + mtu + "; allowed: " + RawTransferSpec.MIN_FRAME + ".." + (mtu + ETH_HLEN), null, true);
            }
            return new Interface(ifname, idx, mtu);
        } catch (IOException e) {
            throw new TransferException("cannot read the state of interface " + ifname + ": " + e.getMessage(), e, true);
        }
    }
}
