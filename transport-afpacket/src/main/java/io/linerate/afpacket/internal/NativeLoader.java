package io.linerate.afpacket.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads {@code liblinerate-afpacket.so} from the jar ({@code META-INF/native/linux-x86_64/}) by
 * copying it to a temporary file, once per JVM. The temporary file is deleted at JVM exit.
 */
public final class NativeLoader {
    /** Where the library sits in the jar. */
    public static final String RESOURCE = "/META-INF/native/linux-x86_64/liblinerate-afpacket.so";

    private static final Logger LOG = LoggerFactory.getLogger(NativeLoader.class);
    private static final Object LOCK = new Object();
    private static volatile String failure;
    private static volatile boolean loaded;

    private NativeLoader() {}

    /**
     * @return null when the library is loaded, else why it cannot be (not Linux x86-64, missing
     *     from the class path, refused by the dynamic linker)
     */
    public static String tryLoad() {
        if (loaded) {
            return null;
        }
        synchronized (LOCK) {
            if (loaded) {
                return null;
            }
            if (failure != null) {
                return failure;
            }
            failure = load();
            loaded = failure == null;
            if (loaded) {
                LOG.debug("loaded the native library {}", RESOURCE);
            } else {
                LOG.debug("AF_PACKET is unavailable: {}", failure);
            }
            return failure;
        }
    }

    /** @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded */
    public static void ensureLoaded() {
        String why = tryLoad();
        if (why != null) {
            throw new UnsatisfiedLinkError(why);
        }
    }

    private static String load() {
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "not Linux: os.name is '" + os + "'; AF_PACKET exists only on Linux";
        }
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            return "no native library for architecture '" + arch + "'; built for: linux-x86_64";
        }
        try (InputStream in = NativeLoader.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "native library missing: " + RESOURCE + " is not on the class path";
            }
            Path tmp = Files.createTempFile("liblinerate-afpacket", ".so");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            System.load(tmp.toAbsolutePath().toString());
            return null;
        } catch (IOException e) {
            return "cannot extract native library " + RESOURCE + ": " + e;
        } catch (UnsatisfiedLinkError e) {
            return "cannot load native library " + RESOURCE + ": " + e.getMessage();
        }
    }
}
