package io.linerate.socket;

import io.linerate.jni.Errno;
import java.io.IOException;

/**
 * A socket call that failed: the message names the call, the errno's name and the C library's
 * text for it ({@link Errno#describe}), such as {@code send(fd 12): EBADF (Bad file descriptor)},
 * or, for a wait that ran out, what waited and how long.
 */
public final class NativeSocketException extends IOException {
    private final int errno;

    private NativeSocketException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    /**
     * @param call the call and its descriptor, such as {@code send(fd 12)}
     * @param result the negative result of the JNI function, {@code -errno}
     * @return the exception naming both
     */
    public static NativeSocketException of(String call, int result) {
        return new NativeSocketException(call + ": " + Errno.describe(result), Math.abs(result));
    }

    /**
     * @param what what waited, such as {@code accept(fd 9) for a connection}
     * @param millis how long it waited, ms
     * @return an exception with errno ETIMEDOUT naming both
     */
    public static NativeSocketException timedOut(String what, long millis) {
        return new NativeSocketException(what + " waited " + millis + " ms without progress: "
                + Errno.describe(Errno.ETIMEDOUT), Errno.ETIMEDOUT);
    }

    /** @return the positive errno of the failed call, such as {@link Errno#EBADF} */
    public int errno() {
        return errno;
    }
}
