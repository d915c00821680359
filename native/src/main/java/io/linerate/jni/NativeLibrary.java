package io.linerate.jni;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One module's JNI library, loaded at most once per JVM: first {@code lib<name>.so} packed in the
 * module's jar under {@code META-INF/native/linux-x86_64/}, copied to a temporary file that is
 * unlinked as soon as it is loaded; when that cannot be done (no library for this architecture in
 * the jar, a temporary directory that is not writable or mounted noexec),
 * {@code System.loadLibrary(name)} from {@code java.library.path}. When neither works, the cause
 * says what each way tried.
 *
 * <p>Each module keeps one instance, in the class that declares its native methods:
 * <pre>{@code
 * static final NativeLibrary LIBRARY =
 *         NativeLibrary.of("linerate-afpacket", "AF_PACKET exists only on Linux", MethodHandles.lookup());
 * }</pre>
 * The lookup makes the library the module's own: the JVM binds a library to the class loader of
 * the class that loads it ({@link System#load}), and the native methods link only from classes of
 * that loader, so the load runs as if the module's class called it.
 */
public final class NativeLibrary {
    /** Where every linerate library sits in its jar, before {@code lib<name>.so}. */
    public static final String RESOURCE_DIRECTORY = "/META-INF/native/linux-x86_64/";

    private static final Logger LOG = LoggerFactory.getLogger(NativeLibrary.class);
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    private final String name;
    private final String linuxOnly;
    private final Ways ways;
    private final Object lock = new Object();
    private volatile String failure;
    private volatile boolean loaded;

    /** The two ways to load a library, as seams for tests. */
    interface Ways {
        /** Extracts the packed library and loads it. @return null when loaded, else why not */
        String packed();

        /** {@code System.loadLibrary}. @throws UnsatisfiedLinkError when it fails */
        void library();
    }

    private NativeLibrary(String name, String linuxOnly, Ways ways) {
        this.name = name;
        this.linuxOnly = linuxOnly;
        this.ways = ways;
    }

    /**
     * @param name the library's name as {@link System#loadLibrary} takes it, such as
     *     {@code linerate-afpacket} for {@code liblinerate-afpacket.so}: 1..63 of a-z, 0-9 and
     *     {@code -}, starting with a letter or digit
     * @param linuxOnly what the "not Linux" cause adds, such as {@code AF_PACKET exists only on Linux}
     * @param owner {@code MethodHandles.lookup()} in the class that declares the library's native
     *     methods: the packed library is read with its class's resources and loaded as if it
     *     called {@link System#load}
     * @return the library, not loaded yet
     * @throws IllegalArgumentException if {@code name} is not such a name
     */
    public static NativeLibrary of(String name, String linuxOnly, MethodHandles.Lookup owner) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("library name '" + name
                    + "' is not valid; allowed: 1..63 of a-z, 0-9 and '-', starting with a letter or digit");
        }
        Objects.requireNonNull(linuxOnly, "linuxOnly");
        return new NativeLibrary(name, linuxOnly, new JdkWays(name, owner));
    }

    /** @return the library's name, such as {@code linerate-afpacket} */
    public String name() {
        return name;
    }

    /** @return where the library sits in its jar, such as {@code /META-INF/native/linux-x86_64/liblinerate-afpacket.so} */
    public String resource() {
        return resource(name);
    }

    private static String resource(String name) {
        return RESOURCE_DIRECTORY + "lib" + name + ".so";
    }

    /**
     * Loads the library on the first call; later calls answer at once with the first call's outcome.
     *
     * @return null when the library is loaded, else why it cannot be (not Linux, or neither the
     *     packed library nor {@code System.loadLibrary} worked, each with its reason)
     */
    public String tryLoad() {
        if (loaded) {
            return null;
        }
        synchronized (lock) {
            if (loaded) {
                return null;
            }
            if (failure != null) {
                return failure;
            }
            failure = load(System.getProperty("os.name", ""), ways, name, linuxOnly);
            loaded = failure == null;
            if (loaded) {
                LOG.debug("loaded the native library {}", resource());
            } else {
                LOG.debug("lib{}.so is unavailable: {}", name, failure);
            }
            return failure;
        }
    }

    /** @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded */
    public void ensureLoaded() {
        String why = tryLoad();
        if (why != null) {
            throw new UnsatisfiedLinkError(why);
        }
    }

    /** @return null when one of the ways loaded the library, else what each tried and why it failed */
    static String load(String os, Ways ways, String name, String linuxOnly) {
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "not Linux: os.name is '" + os + "'; " + linuxOnly;
        }
        String packed = ways.packed();
        if (packed == null) {
            LOG.debug("loaded the native library packed in the jar ({})", resource(name));
            return null;
        }
        try {
            ways.library();
            LOG.info("the packed native library could not be used ({}); loaded lib{}.so with System.loadLibrary", packed, name);
            return null;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            return "native library not loaded: the jar's " + packed + "; System.loadLibrary(\"" + name + "\") with java.library.path="
                    + System.getProperty("java.library.path", "") + ": " + e.getMessage();
        }
    }

    /** The JDK's two ways, run as the owner's class. */
    private static final class JdkWays implements Ways {
        private final String name;
        private final MethodHandles.Lookup owner;

        JdkWays(String name, MethodHandles.Lookup owner) {
            this.name = name;
            this.owner = Objects.requireNonNull(owner, "owner");
        }

        @Override
        public String packed() {
            String resource = resource(name);
            String arch = System.getProperty("os.arch", "");
            if (!arch.equals("amd64") && !arch.equals("x86_64")) {
                return "library is built for linux-x86_64 only, and os.arch is '" + arch + "'";
            }
            try (InputStream in = owner.lookupClass().getResourceAsStream(resource)) {
                if (in == null) {
                    return resource + " is not on the class path";
                }
                Path tmp = Files.createTempFile("lib" + name, ".so");
                try {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                    call("load", tmp.toAbsolutePath().toString());
                } finally {
                    // Linux keeps a loaded library mapped after its file is unlinked (as Netty does
                    // with its native transports), so nothing is left in the temporary directory
                    // even when the JVM is killed with SIGKILL
                    Files.deleteIfExists(tmp);
                }
                return null;
            } catch (IOException e) {
                return resource + " cannot be extracted: " + e;
            } catch (UnsatisfiedLinkError e) {
                return resource + " cannot be loaded once extracted: " + e.getMessage();
            }
        }

        @Override
        public void library() {
            call("loadLibrary", name);
        }

        /** {@code System.load} or {@code System.loadLibrary}, called as the owner's class calls it. */
        private void call(String method, String argument) {
            MethodHandle h;
            try {
                h = owner.findStatic(System.class, method, MethodType.methodType(void.class, String.class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("System." + method + " cannot be looked up from " + owner, e);
            }
            try {
                h.invokeExact(argument);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("System." + method + " threw " + t, t);
            }
        }
    }
}
