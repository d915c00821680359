package io.linerate.afpacket;

import io.linerate.afpacket.internal.Native;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One SIOCETHTOOL ioctl. The real one goes to the kernel; tests substitute a software rule table.
 */
@FunctionalInterface
public interface EthtoolIoctl {

    /**
     * @param interfaceName the interface, 1..15 ASCII characters
     * @param request a direct buffer in native byte order starting with the u32 ethtool command
     *     ({@code struct ethtool_rxnfc} or {@code ethtool_drvinfo}, {@code <linux/ethtool.h>}); the
     *     answer is written into it
     * @return 0, or {@code -errno}
     */
    int ioctl(String interfaceName, ByteBuffer request);

    /**
     * @return the kernel's SIOCETHTOOL
     * @throws UnsatisfiedLinkError if the native library cannot be loaded
     */
    static EthtoolIoctl system() {
        Native.LIBRARY.ensureLoaded();
        return (name, request) -> {
            ByteBuffer n = cString(name);
            return Native.ethtool(Native.address(n), Native.address(request));
        };
    }

    /**
     * @return {@code name} as a NUL-terminated string in a direct buffer
     * @throws IllegalArgumentException if it is empty, longer than 15 bytes or not ASCII
     */
    static ByteBuffer cString(String name) {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        if (b.length == 0 || b.length > 15 || !StandardCharsets.US_ASCII.newEncoder().canEncode(name) || name.indexOf('/') >= 0) {
            throw new IllegalArgumentException("interface name '" + name + "' is not valid; allowed: 1..15 ASCII characters without '/'");
        }
        ByteBuffer buf = ByteBuffer.allocateDirect(16);
        buf.put(b).put((byte) 0);
        return buf;
    }
}
