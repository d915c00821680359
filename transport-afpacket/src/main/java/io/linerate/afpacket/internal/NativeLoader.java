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
 * Loads the native library once per JVM: first {@code liblinerate-afpacket.so} packed in the jar
 * ({@code META-INF/native/linux-x86_64/}), copied to a temporary file that is deleted at JVM exit;
 * when that cannot be done (no library for this architecture in the jar, a temporary directory
 * that is not writable or mounted noexec), {@code System.loadLibrary("linerate-afpacket")} from
 * {@code java.library.path}. When neither works, the cause says what each way tried.
 */
public final class NativeLoader {
    /** Where the library sits in the jar. */
    public static final String RESOURCE = "/META-INF/native/linux-x86_64/liblinerate-afpacket.so";
    /** The name {@link System#loadLibrary} is given. */
    public static final String LIBRARY = "linerate-afpacket";

    private static final Logger LOG = LoggerFactory.getLogger(NativeLoader.class);
    private static final Object LOCK = new Object();
    private static volatile String failure;
    private static volatile boolean loaded;

    /** The two ways to load the library, as seams for tests. */
    interface Ways {
        /** Extracts the packed library and loads it. @return null when loaded, else why not */
        String packed();

        /** {@code System.loadLibrary}. @throws UnsatisfiedLinkError when it fails */
        void library();
    }

    private NativeLoader() {}

    /**
     * @return null when the library is loaded, else why it cannot be (not Linux, or neither the
     *     packed library nor {@code System.loadLibrary} worked, each with its reason)
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
            failure = load(System.getProperty("os.name", ""), SYSTEM);
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

    /** @return null when one of the ways loaded the library, else what each tried and why it failed */
    static String load(String os, Ways ways) {
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "not Linux: os.name is '" + os + "'; AF_PACKET exists only on Linux";
        }
        String packed = ways.packed();
        if (packed == null) {
            LOG.debug("loaded the native library packed in the jar ({})", RESOURCE);
            return null;
        }
        try {
            ways.library();
            LOG.info("the packed native library could not be used ({}); loaded lib{}.so with System.loadLibrary", packed, LIBRARY);
            return null;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            return "native library not loaded: the jar's " + packed + "; System.loadLibrary(\"" + LIBRARY + "\") with java.library.path="
                    + System.getProperty("java.library.path", "") + ": " + e.getMessage();
        }
    }

    private static final Ways SYSTEM = new Ways() {
        @Override
        public String packed() {
            String arch = System.getProperty("os.arch", "");
            if (!arch.equals("amd64") && !arch.equals("x86_64")) {
                return "library is built for linux-x86_64 only, and os.arch is '" + arch + "'";
            }
            try (InputStream in = NativeLoader.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    return RESOURCE + " is not on the class path";
                }
                Path tmp = Files.createTempFile("liblinerate-afpacket", ".so");
                try {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                    System.load(tmp.toAbsolutePath().toString());
                } finally {
                    // Linux keeps a loaded library mapped after its file is unlinked (as Netty does
                    // with its native transports), so nothing is left in the temporary directory
                    // even when the JVM is killed with SIGKILL
                    Files.deleteIfExists(tmp);
                }
                return null;
            } catch (IOException e) {
                return RESOURCE + " cannot be extracted: " + e;
            } catch (UnsatisfiedLinkError e) {
                return RESOURCE + " cannot be loaded once extracted: " + e.getMessage();
            }
        }

        @Override
        public void library() {
            System.loadLibrary(LIBRARY);
        }
    };
}
