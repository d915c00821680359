package io.linerate.netns;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs an external command with a bound on its run time; the process is killed past the bound. */
final class Commands {
    private Commands() {}

    /** What a finished command printed and returned. */
    record Outcome(int exitCode, String stdout, String stderr) {}

    /**
     * @param command program and arguments
     * @param timeout bound on the whole run
     * @return exit code and output
     * @throws IOException if it cannot start or runs past the bound (it is killed then)
     */
    static Outcome run(List<String> command, Duration timeout) throws IOException {
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(nullFile())).start();
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                // reaped before the caller goes on: it may clean up what the command was making
                p.destroyForcibly().waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                throw new IOException("'" + String.join(" ", command) + "' did not finish within "
                        + timeout.toMillis() + " ms and was killed");
            }
            return new Outcome(p.exitValue(), out.join(), err.join());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running '" + String.join(" ", command) + "'", e);
        }
    }

    /** Like {@link #run} but fails unless the exit code is 0, with the command's stderr in the message. */
    static Outcome check(List<String> command, Duration timeout) throws IOException {
        Outcome o = run(command, timeout);
        if (o.exitCode() != 0) {
            throw new IOException("'" + String.join(" ", command) + "' exited with " + o.exitCode() + ": "
                    + o.stderr().strip());
        }
        return o;
    }

    private static java.io.File nullFile() {
        return new java.io.File("/dev/null");
    }

    private static CompletableFuture<String> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
    }
}
