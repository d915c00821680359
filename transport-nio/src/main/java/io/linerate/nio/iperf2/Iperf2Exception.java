package io.linerate.nio.iperf2;

/** A run against an iperf 2 server failed: it refused, could not be reached, or stopped answering. */
public final class Iperf2Exception extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message names the server and the step that failed */
    public Iperf2Exception(String message) {
        super(message);
    }

    /** @param message names the server and the step that failed */
    public Iperf2Exception(String message, Throwable cause) {
        super(message, cause);
    }
}
