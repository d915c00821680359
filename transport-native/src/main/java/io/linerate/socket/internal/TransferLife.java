package io.linerate.socket.internal;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A native transfer's life, as {@link io.linerate.core.Transfer} asks it: it runs once, and not
 * after it was closed.
 */
final class TransferLife {
    private final AtomicBoolean ran = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** @throws IllegalStateException when the transfer ran already or was closed */
    void run() {
        if (closed.get()) {
            throw new IllegalStateException("the transfer is closed");
        }
        if (!ran.compareAndSet(false, true)) {
            throw new IllegalStateException("a transfer runs once; open a new one");
        }
    }

    /** @return true the first time only: the caller then releases what the transfer holds */
    boolean close() {
        return closed.compareAndSet(false, true);
    }
}
