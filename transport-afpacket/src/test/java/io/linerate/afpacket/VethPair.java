package io.linerate.afpacket;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A veth pair in the test JVM's namespace with unique names, IPv6 off so the kernel sends nothing
 * of its own on it, both ends up. Closing deletes it (deleting one end deletes both).
 */
final class VethPair implements AutoCloseable {
    private static final AtomicInteger NEXT = new AtomicInteger();
    final String a;
    final String b;

    private VethPair(String a, String b) {
        this.a = a;
        this.b = b;
    }

    static VethPair create() throws IOException {
        String base = "lrt" + ProcessHandle.current().pid() % 100_000 + "x" + NEXT.getAndIncrement();
        VethPair p = new VethPair(base + "a", base + "b");
        ip("link", "add", p.a, "type", "veth", "peer", "name", p.b);
        try {
            for (String n : List.of(p.a, p.b)) {
                Path v6 = Path.of("/proc/sys/net/ipv6/conf", n, "disable_ipv6");
                if (Files.exists(v6)) {
                    Files.writeString(v6, "1\n", StandardCharsets.US_ASCII);
                }
                ip("link", "set", n, "up");
            }
        } catch (IOException | RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    void down(String name) throws IOException {
        ip("link", "set", name, "down");
    }

    static void ip(String... args) throws IOException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!pr.waitFor(10, TimeUnit.SECONDS)) {
                pr.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (pr.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed (" + pr.exitValue() + "): " + out.strip());
        }
    }

    static boolean exists(String name) {
        return Files.isDirectory(Path.of("/sys/class/net", name));
    }

    @Override
    public void close() throws IOException {
        if (exists(a)) {
            ip("link", "del", a);
        }
    }
}
