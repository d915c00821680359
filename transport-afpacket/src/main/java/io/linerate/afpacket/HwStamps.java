package io.linerate.afpacket;

import io.linerate.afpacket.internal.Layout;
import io.linerate.afpacket.internal.Native;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hardware RX stamping on an interface: enabled if the driver applies a filter (SIOCSHWTSTAMP with
 * HWTSTAMP_FILTER_ALL), and the previous setting restored on {@link #close()}.
 */
final class HwStamps implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HwStamps.class);
    private static final int HWTSTAMP_FILTER_NONE = 0;
    private static final int HWTSTAMP_FILTER_ALL = 1;

    private final ByteBuffer name;
    private final ByteBuffer previous = ByteBuffer.allocateDirect(Layout.HWTSTAMP_SIZE).order(ByteOrder.nativeOrder());
    private boolean enabled;
    private boolean changed;

    private HwStamps(String ifname) {
        this.name = ifname == null ? null : EthtoolIoctl.cString(ifname);
    }

    /** @return stamping left as it is: nothing enabled, nothing to restore */
    static HwStamps none() {
        return new HwStamps(null);
    }

    static HwStamps enable(String ifname) {
        HwStamps h = new HwStamps(ifname);
        int get = Native.hwtstamp(Native.address(h.name), Native.address(h.previous), 0);
        if (get < 0) {
            // no SIOCGHWTSTAMP (veth): software stamps only, nothing to restore
            LOG.debug("{}: no hardware RX stamps (SIOCGHWTSTAMP: {}); software stamps", ifname, io.linerate.jni.Errno.describe(-get));
            return h;
        }
        ByteBuffer cfg = ByteBuffer.allocateDirect(Layout.HWTSTAMP_SIZE).order(ByteOrder.nativeOrder());
        cfg.putInt(Layout.HWTSTAMP_TX_TYPE, h.previous.getInt(Layout.HWTSTAMP_TX_TYPE));
        cfg.putInt(Layout.HWTSTAMP_RX_FILTER, HWTSTAMP_FILTER_ALL);
        int rc = Native.hwtstamp(Native.address(h.name), Native.address(cfg), 1);
        // Read back what the driver applied; ERANGE means the filter is not supported.
        h.changed = rc == 0;
        h.enabled = rc == 0 && cfg.getInt(Layout.HWTSTAMP_RX_FILTER) != HWTSTAMP_FILTER_NONE;
        LOG.debug("{}: hardware RX stamps {}", ifname, h.enabled ? "enabled" : "refused by the driver; software stamps");
        return h;
    }

    /** @return whether the driver stamps received frames in hardware now */
    boolean enabled() {
        return enabled;
    }

    /** Restores the previous setting if it was changed; idempotent. */
    @Override
    public void close() {
        if (changed) {
            changed = false;
            Native.hwtstamp(Native.address(name), Native.address(previous), 1);
        }
    }
}
