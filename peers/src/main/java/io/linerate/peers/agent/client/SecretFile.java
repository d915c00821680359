package io.linerate.peers.agent.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Reads a shared secret from a file: its bytes, without one trailing line end (LF or CR LF). */
public final class SecretFile {
    /** Largest secret file, bytes. */
    public static final int MAX_BYTES = 4096;

    private SecretFile() {}

    /**
     * @param file a regular file of 1..{@value #MAX_BYTES} bytes
     * @return the secret's bytes
     * @throws IllegalArgumentException naming the file when it is missing, not a regular file, empty
     *     or larger than {@value #MAX_BYTES} bytes
     */
    public static byte[] read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("secret file " + file + " is not a readable regular file");
        }
        byte[] b;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new IllegalArgumentException("secret file " + file + " holds more than " + MAX_BYTES
                        + " bytes; allowed: 1.." + MAX_BYTES);
            }
            b = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read secret file " + file + ": " + e.getMessage(), e);
        }
        int n = b.length;
        if (n > 0 && b[n - 1] == '\n') {
            n--;
            if (n > 0 && b[n - 1] == '\r') {
                n--;
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("secret file " + file + " is empty; allowed: 1.." + MAX_BYTES + " bytes");
        }
        return Arrays.copyOf(b, n);
    }
}
