package io.linerate.afpacket;

import io.linerate.jni.Errno;
import io.linerate.core.TransferException;

/**
 * A system call on an interface failed. The message names the interface, the call and the errno
 * with its text, such as {@code ETHTOOL_SRXCLSRLINS on eth1 failed: ENOSPC (No space left on device)}.
 */
public class AfPacketException extends TransferException {
    private static final long serialVersionUID = 1L;
    private final String interfaceName;
    private final String call;
    private final int errno;

    /**
     * @param interfaceName the interface the call was about
     * @param call the call, such as {@code ETHTOOL_GRXRINGS} or {@code sendmmsg}
     * @param errno the positive errno (a negative value is taken as its magnitude)
     * @param detail what to do about it, appended to the message; may be empty
     * @param usageError whether the caller's input caused it
     */
    public AfPacketException(String interfaceName, String call, int errno, String detail, boolean usageError) {
        super(call + " on " + interfaceName + " failed: " + Errno.describe(errno)
                + (detail == null || detail.isEmpty() ? "" : "; " + detail), null, usageError);
        this.interfaceName = interfaceName;
        this.call = call;
        this.errno = Math.abs(errno);
    }

    /** A failure that the caller's input did not cause, without further detail. */
    public AfPacketException(String interfaceName, String call, int errno) {
        this(interfaceName, call, errno, "", false);
    }

    /** @return the interface the failed call was about */
    public String interfaceName() {
        return interfaceName;
    }

    /** @return the call that failed */
    public String call() {
        return call;
    }

    /** @return the positive errno */
    public int errno() {
        return errno;
    }
}
