package io.linerate.netns;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command started inside a {@link NetworkNamespace} ({@link NetworkNamespace#start}). Its pid is
 * the command's own ({@code nsenter} enters the namespaces and execs it). Closing the handle stops
 * it: SIGTERM, then SIGKILL if it has not exited within {@link #GRACE}; closing the namespace kills
 * it too.
 */
public final class NamespaceProcess implements AutoCloseable {
    /** How long {@link #close()} waits after SIGTERM before SIGKILL. */
    public static final Duration GRACE = Duration.ofSeconds(2);

    private final Process process;
    private final List<String> command;

    NamespaceProcess(Process process, List<String> command) {
        this.process = process;
        this.command = List.copyOf(command);
    }

    /** @return the running process: its pipes (standard input, output and error), pid and exit code */
    public Process process() {
        return process;
    }

    /** @return the command as given, without the {@code nsenter} prefix */
    public List<String> command() {
        return command;
    }

    /** @return the command's pid */
    public long pid() {
        return process.pid();
    }

    /** Stops the command (SIGTERM, then SIGKILL after {@link #GRACE}) and waits for it. Idempotent; never throws. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(NetworkNamespace.COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
