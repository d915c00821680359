package io.linerate.peers.iperf3;

import io.linerate.core.TransferException;

/** A session with an iperf3 server failed: refused, broken off, timed out or spoken to out of order. */
public class Iperf3Exception extends TransferException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, naming the server and the step */
    public Iperf3Exception(String message) {
        super(message, null);
    }

    /**
     * @param message what failed, naming the server and the step
     * @param cause the underlying error
     */
    public Iperf3Exception(String message, Throwable cause) {
        super(message, cause);
    }
}
