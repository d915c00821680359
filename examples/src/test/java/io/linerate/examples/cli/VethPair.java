package io.linerate.examples.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A veth pair on this host for the raw-frame command tests (root): made up, IPv6 off, removed by the caller. */
final class VethPair {
    private static final AtomicInteger NEXT = new AtomicInteger();

    private VethPair() {}

    /**
     * @param tag a letter that tells the calling test's interfaces apart from another's
     * @return the two interface names, {@code lrt<pid><tag><n>a} and {@code ...b}, both up
     * @throws IOException when {@code ip} fails; nothing is left then
     */
    static String[] create(char tag) throws IOException {
        String base = "lrt" + ProcessHandle.current().pid() % 100_000 + tag + NEXT.getAndIncrement();
        String[] v = {base + "a", base + "b"};
        ip("link", "add", v[0], "type", "veth", "peer", "name", v[1]);
        try {
            for (String n : v) {
                Path v6 = Path.of("/proc/sys/net/ipv6/conf", n, "disable_ipv6");
                if (Files.exists(v6)) {
                    Files.writeString(v6, "1\n", StandardCharsets.US_ASCII);
                }
                ip("link", "set", n, "up");
            }
        } catch (IOException | RuntimeException e) {
            ip("link", "del", v[0]);
            throw e;
        }
        return v;
    }

    /** Runs {@code ip ARGS}, bounded by 10 s. @throws IOException naming the command when it fails */
    static void ip(String... args) throws IOException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: "
                    + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
