package io.linerate.core.latency;

import java.util.Objects;
import java.util.Optional;

/**
 * Each pinned end's CPU set as read back from its thread once pinned ({@code Cpus_allowed_list} of
 * {@code /proc/thread-self/status}, proc(5)), in the kernel's CPU list format, such as {@code 1}.
 *
 * @param client the client thread's set; empty when it was not pinned, or the kernel's account could not be read
 * @param server the echo thread's set; empty when it was not pinned, or the kernel's account could not be read
 */
public record AffinityReadBack(Optional<String> client, Optional<String> server) {
    /** @throws NullPointerException for a null side (use {@link Optional#empty()}) */
    public AffinityReadBack {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(server, "server");
    }
}
