package io.linerate.afpacket;

import io.linerate.core.TransferException;
import java.util.ArrayList;
import java.util.List;
import org.agrona.CloseHelper;

/**
 * Everything a raw run opened, closed in the reverse order of opening on every path, with
 * Agrona's {@link CloseHelper}: each resource is closed whatever the others did. Used with
 * try-with-resources, a close failure under a run that failed is attached to that failure as
 * suppressed; after a run that succeeded it is thrown.
 */
final class RunCloser implements AutoCloseable {
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** Registers {@code resource}, to be closed before everything registered earlier; returns it. */
    <T extends AutoCloseable> T add(T resource) {
        opened.add(resource);
        return resource;
    }

    /**
     * Closes every resource, the last registered first.
     *
     * @throws TransferException the first failure (a {@link TransferException} as it was, anything
     *     else wrapped), with the later ones suppressed
     */
    @Override
    public void close() throws TransferException {
        List<Throwable> failures = new ArrayList<>();
        List<AutoCloseable> reversed = new ArrayList<>(opened);
        java.util.Collections.reverse(reversed);
        opened.clear();
        CloseHelper.closeAll(failures::add, reversed);
        if (failures.isEmpty()) {
            return;
        }
        Throwable first = failures.get(0);
        for (Throwable t : failures.subList(1, failures.size())) {
            first.addSuppressed(t);
        }
        if (first instanceof TransferException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        throw new TransferException("could not release a raw run's resources: " + first.getMessage(), first);
    }
}
