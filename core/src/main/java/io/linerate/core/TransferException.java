package io.linerate.core;

/**
 * A transfer could not be set up or did not complete. {@link #isUsageError()} tells a caller
 * whose input was at fault (a port in use, an address that cannot be bound) from a fault met
 * while moving data (a peer that stopped, a timeout).
 */
public class TransferException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean usageError;

    /**
     * @param message what failed, naming the value or endpoint and what to do
     * @param cause the underlying error, or null
     * @param usageError whether the caller's input caused it
     */
    public TransferException(String message, Throwable cause, boolean usageError) {
        super(message, cause);
        this.usageError = usageError;
    }

    /** @param message what failed; not a usage error */
    public TransferException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /** @return whether the caller's input (not the network) caused this */
    public boolean isUsageError() {
        return usageError;
    }
}
