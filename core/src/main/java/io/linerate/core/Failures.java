package io.linerate.core;

/** Text for an exception in a message built around it. */
public final class Failures {
    private Failures() {
    }

    /**
     * @param e any throwable
     * @return its message, or, when it has none (a {@code NullPointerException}, some socket
     *     errors), its class and whatever {@link Throwable#toString()} says, never "null"; for a
     *     {@link java.net.PortUnreachableException}, what it means for a UDP stream; for a file
     *     error that names only its file ({@link java.nio.file.NoSuchFileException}), the file and
     *     why, such as {@code /x/y: no such file or directory}
     */
    public static String describe(Throwable e) {
        if (e == null) {
            return "unknown failure";
        }
        if (e instanceof java.net.PortUnreachableException) {
            // Linux reports an ICMP port unreachable on the next send or receive of a connected UDP socket
            return "the peer's UDP port is closed (ICMP port unreachable): its receiving end has ended or was not "
                    + "open yet; check that the peer still runs, and that --io-timeout is long enough for it to start";
        }
        if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() == null) {
            // the JDK's NoSuchFileException and AccessDeniedException say only the file's name
            String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
                    : e instanceof java.nio.file.NotDirectoryException ? "not a directory"
                    : e instanceof java.nio.file.FileAlreadyExistsException ? "it exists"
                    : e.getClass().getSimpleName();
            return fs.getFile() + ": " + why;
        }
        String m = e.getMessage();
        if (m != null && !m.isBlank()) {
            return m;
        }
        Throwable cause = e.getCause();
        if (cause != null && cause != e && cause.getMessage() != null && !cause.getMessage().isBlank()) {
            return e.getClass().getSimpleName() + ": " + cause.getMessage();
        }
        return e.getClass().getName();
    }
}
