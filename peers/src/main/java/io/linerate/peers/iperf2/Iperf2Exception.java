package io.linerate.peers.iperf2;

import io.linerate.core.TransferException;

/** A run against an iperf 2 server failed: it could not be reached, or stopped taking data. */
public final class Iperf2Exception extends TransferException {
    private static final long serialVersionUID = 1L;

    /** @param message names the server and the step that failed */
    public Iperf2Exception(String message) {
        super(message, null);
    }

    /** @param message names the server and the step that failed */
    public Iperf2Exception(String message, Throwable cause) {
        super(message, cause);
    }
}
