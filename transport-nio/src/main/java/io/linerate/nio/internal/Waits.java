package io.linerate.nio.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Locale;
import java.util.function.Consumer;

/** Bounded waits and error wording shared by the TCP and UDP endpoints. */
public final class Waits {
    /** How often a waiting loop looks at its stop flag, ms. */
    public static final long POLL_MILLIS = 10;
    /** A selection handler that does nothing: readiness is acted on by retrying the call. */
    public static final Consumer<SelectionKey> IGNORE = k -> { };

    private Waits() {}

    /** Waits for readiness at most {@code millis} ms (at least 1); allocation-free. */
    public static void select(Selector selector, long millis) throws IOException {
        selector.select(IGNORE, Math.max(1, millis));
    }

    /** @return INET or INET6 */
    public static ProtocolFamily protocolFamily(AddressFamily f) {
        return f == AddressFamily.IPV4 ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
    }

    static TransferException bindFailure(InetSocketAddress addr, String proto, IOException e) {
        if (e instanceof BindException) {
            return new TransferException(String.format(Locale.ROOT,
                    "%s port %d on %s is already in use; allowed: a free port 1..65535, or 0 for an ephemeral port",
                    proto, addr.getPort(), addr.getAddress().getHostAddress()), e, true);
        }
        return new TransferException(String.format(Locale.ROOT, "cannot bind %s receiver to %s port %d: %s",
                proto, addr.getAddress().getHostAddress(), addr.getPort(), e.getMessage()), e,
                e.getMessage() != null && e.getMessage().contains("not available"));
    }

    static IOException noProgress(String what, long timeoutNanos, long bytes) {
        return new IOException(String.format(Locale.ROOT,
                "%s made no progress for %d ms after %d bytes: the peer stopped reading",
                what, timeoutNanos / 1_000_000L, bytes));
    }
}
