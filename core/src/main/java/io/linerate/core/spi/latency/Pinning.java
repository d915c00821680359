package io.linerate.core.spi.latency;

import io.linerate.core.TransferException;
import io.linerate.core.spi.cpu.ThreadAffinity;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One ping-pong end's thread pinned to its {@code --affinity} CPU for the run, and its CPU set as
 * read back once pinned; nothing when the end is not pinned.
 */
public final class Pinning implements AutoCloseable {
    private static final Pinning NONE = new Pinning(null, Optional.empty());

    private final ThreadAffinity.Pin pin;
    private final Optional<String> readBack;

    private Pinning(ThreadAffinity.Pin pin, Optional<String> readBack) {
        this.pin = pin;
        this.readBack = readBack;
    }

    /**
     * Pins the calling thread to {@code cpu}, if one is given.
     *
     * @param end which end, for the message ({@code client} or {@code server})
     * @throws TransferException a usage error naming the CPU and the thread's CPU set when the CPU
     *     is not one of them, or saying why no thread can be pinned here (no native layer)
     */
    public static Pinning of(String end, OptionalInt cpu) throws TransferException {
        if (cpu.isEmpty()) {
            return NONE;
        }
        try {
            ThreadAffinity.Pin p = ThreadAffinity.pin(cpu.getAsInt());
            return new Pinning(p, ThreadAffinity.readBack());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new TransferException("--affinity cannot pin the " + end + " to CPU " + cpu.getAsInt() + ": "
                    + e.getMessage(), e, true);
        }
    }

    /** @return the pinned thread's CPU set as read back; empty when not pinned */
    public Optional<String> readBack() {
        return readBack;
    }

    /** Gives the thread back the CPU set it had; call on the pinned thread. */
    @Override
    public void close() {
        if (pin != null) {
            pin.close();
        }
    }
}
