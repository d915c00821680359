package io.linerate.jni;

import io.linerate.jni.internal.Jni;
import java.util.Map;

/**
 * The Java half of the {@code -errno} convention ({@code linerate_jni.h}): a JNI function returns a
 * non-negative result or {@code -errno}, and the caller names the error with {@link #describe}.
 * The values are Linux's ({@code <asm-generic/errno-base.h>}, {@code <asm-generic/errno.h>}), those
 * linerate names in messages.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int EPIPE = 32;
    public static final int ERANGE = 34;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int EPROTO = 71;
    public static final int EMSGSIZE = 90;
    public static final int ENOPROTOOPT = 92;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int ENETDOWN = 100;
    public static final int EADDRINUSE = 98;
    public static final int ECONNABORTED = 103;
    public static final int ECONNRESET = 104;
    public static final int ENOBUFS = 105;
    public static final int ENOTCONN = 107;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EINPROGRESS = 115;

    private static final Map<Integer, String[]> TABLE = Map.ofEntries(
            Map.entry(EPERM, new String[] {"EPERM", "Operation not permitted"}),
            Map.entry(ENOENT, new String[] {"ENOENT", "No such file or directory"}),
            Map.entry(EINTR, new String[] {"EINTR", "Interrupted system call"}),
            Map.entry(EIO, new String[] {"EIO", "Input/output error"}),
            Map.entry(ENXIO, new String[] {"ENXIO", "No such device or address"}),
            Map.entry(EBADF, new String[] {"EBADF", "Bad file descriptor"}),
            Map.entry(EAGAIN, new String[] {"EAGAIN", "Resource temporarily unavailable"}),
            Map.entry(ENOMEM, new String[] {"ENOMEM", "Cannot allocate memory"}),
            Map.entry(EACCES, new String[] {"EACCES", "Permission denied"}),
            Map.entry(EFAULT, new String[] {"EFAULT", "Bad address"}),
            Map.entry(EBUSY, new String[] {"EBUSY", "Device or resource busy"}),
            Map.entry(EEXIST, new String[] {"EEXIST", "File exists"}),
            Map.entry(ENODEV, new String[] {"ENODEV", "No such device"}),
            Map.entry(EINVAL, new String[] {"EINVAL", "Invalid argument"}),
            Map.entry(ENOSPC, new String[] {"ENOSPC", "No space left on device"}),
            Map.entry(EPIPE, new String[] {"EPIPE", "Broken pipe"}),
            Map.entry(ERANGE, new String[] {"ERANGE", "Numerical result out of range"}),
            Map.entry(ENOSYS, new String[] {"ENOSYS", "Function not implemented"}),
            Map.entry(ENODATA, new String[] {"ENODATA", "No data available"}),
            Map.entry(EPROTO, new String[] {"EPROTO", "Protocol error"}),
            Map.entry(EMSGSIZE, new String[] {"EMSGSIZE", "Message too long"}),
            Map.entry(ENOPROTOOPT, new String[] {"ENOPROTOOPT", "Protocol not available"}),
            Map.entry(EPROTONOSUPPORT, new String[] {"EPROTONOSUPPORT", "Protocol not supported"}),
            Map.entry(EOPNOTSUPP, new String[] {"EOPNOTSUPP", "Operation not supported"}),
            Map.entry(EAFNOSUPPORT, new String[] {"EAFNOSUPPORT", "Address family not supported by protocol"}),
            Map.entry(ENETDOWN, new String[] {"ENETDOWN", "Network is down"}),
            Map.entry(EADDRINUSE, new String[] {"EADDRINUSE", "Address already in use"}),
            Map.entry(ECONNABORTED, new String[] {"ECONNABORTED", "Software caused connection abort"}),
            Map.entry(ECONNRESET, new String[] {"ECONNRESET", "Connection reset by peer"}),
            Map.entry(ENOBUFS, new String[] {"ENOBUFS", "No buffer space available"}),
            Map.entry(ENOTCONN, new String[] {"ENOTCONN", "Transport endpoint is not connected"}),
            Map.entry(ETIMEDOUT, new String[] {"ETIMEDOUT", "Connection timed out"}),
            Map.entry(ECONNREFUSED, new String[] {"ECONNREFUSED", "Connection refused"}),
            Map.entry(EINPROGRESS, new String[] {"EINPROGRESS", "Operation now in progress"}));

    private Errno() {}

    /**
     * @param errno an errno, positive or negated as a JNI function returns it
     * @return the symbolic name, such as {@code EOPNOTSUPP}, or {@code errno N} for one not named here
     */
    public static String name(int errno) {
        String[] e = TABLE.get(Math.abs(errno));
        return e == null ? "errno " + Math.abs(errno) : e[0];
    }

    /**
     * @param errno an errno, positive or negated as a JNI function returns it
     * @return {@code NAME (text)}, such as {@code EOPNOTSUPP (Operation not supported)}: the text
     *     from the C library ({@code strerror_r(3)}) when {@code liblinerate-native.so} is loaded,
     *     otherwise from a small built-in table, or {@code unknown error}
     */
    public static String describe(int errno) {
        int e = Math.abs(errno);
        String text = null;
        if (Jni.LIBRARY.tryLoad() == null) {
            text = Jni.strerror(e);
        }
        if (text == null) {
            String[] t = TABLE.get(e);
            text = t == null ? "unknown error" : t[1];
        }
        return name(e) + " (" + text + ")";
    }
}
