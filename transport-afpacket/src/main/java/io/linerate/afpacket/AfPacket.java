package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.jni.Errno;
import io.linerate.afpacket.internal.Native;
import io.linerate.core.live.LiveCounters;
import java.util.Optional;

/**
 * Whether AF_PACKET can be used in this process. The probe runs once: it loads the native library
 * and opens (and closes) a real {@code AF_PACKET} socket.
 */
public final class AfPacket {
    private static volatile Optional<String> cause;

    private AfPacket() {}

    /** @return whether raw transfers can run: Linux, native library loaded, CAP_NET_RAW held, Agrona usable */
    public static boolean isAvailable() {
        return unavailabilityCause().isEmpty();
    }

    /**
     * @return why AF_PACKET cannot be used (not Linux, native library missing, saying how loading
     *     it was tried, or built with another MAX_BATCH, no CAP_NET_RAW, AF_PACKET not in the
     *     kernel, or a JVM started without the option Agrona's
     *     {@code UnsafeBuffer} needs to read the mapped rings), or empty when it can
     */
    public static Optional<String> unavailabilityCause() {
        Optional<String> c = cause;
        if (c == null) {
            synchronized (AfPacket.class) {
                c = cause;
                if (c == null) {
                    c = Optional.ofNullable(probe());
                    cause = c;
                }
            }
        }
        return c;
    }

    private static String probe() {
        String why = Native.LIBRARY.tryLoad();
        if (why != null) {
            return why;
        }
        try {
            why = batchMismatch(Native.maxBatch(), RawTransferSpec.MAX_BATCH);
        } catch (UnsatisfiedLinkError e) {
            why = "the native library has no maxBatch function: it is older than this jar (" + e.getMessage()
                    + "); build both from the same sources";
        }
        if (why != null) {
            return why;
        }
        int rc = Native.probe();
        if (rc == 0) {
            return LiveCounters.unavailabilityCause()
                    .map(c -> "raw frames are read and written through Agrona's UnsafeBuffer: " + c).orElse(null);
        }
        int e = -rc;
        if (e == Errno.EPERM || e == Errno.EACCES) {
            return "no CAP_NET_RAW: socket(AF_PACKET, SOCK_RAW) failed with " + Errno.describe(e)
                    + "; run as root or grant CAP_NET_RAW";
        }
        if (e == Errno.EAFNOSUPPORT) {
            return "the kernel has no AF_PACKET support: " + Errno.describe(e);
        }
        return "socket(AF_PACKET, SOCK_RAW) failed: " + Errno.describe(e);
    }

    /**
     * The native side sizes nothing by the batch any more, but refuses a batch above its MAX_BATCH:
     * the two must agree, or a valid spec would fail at its first send.
     *
     * @return why they disagree, or null when they agree
     */
    static String batchMismatch(int nativeMax, int javaMax) {
        if (nativeMax == javaMax) {
            return null;
        }
        return "the native library takes at most " + nativeMax + " frames per send (MAX_BATCH) but RawTransferSpec.MAX_BATCH is "
                + javaMax + "; build the jar and its native library from the same sources";
    }
}
