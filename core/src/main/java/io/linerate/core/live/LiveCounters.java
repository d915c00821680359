package io.linerate.core.live;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's live counters file, {@code linerate-<pid>.counters} in {@link #directory()}.
 *
 * <p>The file exists while a transfer or progress report is registered, or a {@link #hold()} is
 * open: it is created (after removing the {@linkplain StaleCounterFiles stale files} of dead
 * processes, each with a warning) when the first one opens, and removed when the last one closes,
 * whether the transfer ended normally or by an exception. A shutdown hook removes it when the JVM
 * exits on SIGTERM or SIGINT; after SIGKILL the next process that creates a counters file, or
 * {@code linerate stat}, removes it.
 *
 * <p>Live counters never fail a measurement: when the file cannot be made (the directory is not
 * writable, live counters are off, the file is full) a warning is logged once and the transfer
 * writes into counters nobody else sees.
 *
 * <p>Directory: {@link #directory(Path)} if set, else the system property
 * {@value #DIRECTORY_PROPERTY}, else {@code ${java.io.tmpdir}/linerate-<user>}. The system property
 * {@value #ENABLED_PROPERTY}{@code =false} turns live counters off.
 */
public final class LiveCounters {
    /** System property naming the counters directory. */
    public static final String DIRECTORY_PROPERTY = "linerate.counters.dir";
    /** System property that turns live counters off when {@code false}. */
    public static final String ENABLED_PROPERTY = "linerate.counters.enabled";

    /** The JVM option Agrona needs on Java 17 and later. */
    public static final String AGRONA_JVM_OPTION = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    private static final Logger LOG = LoggerFactory.getLogger(LiveCounters.class);
    private static final LiveCounters PROCESS = new LiveCounters(null);

    private final AtomicLong nextGroupId = new AtomicLong(1);
    private final long pid = ProcessHandle.current().pid();
    private final long processStartMillis = ProcessHandle.current().info().startInstant()
            .map(java.time.Instant::toEpochMilli).orElse(-1L);
    private Path directoryOverride;
    private CountersFile file;
    private volatile Path openFile;
    private int users;
    private boolean hookInstalled;
    private String lastFailure;

    /** @param directory the directory, or null for the property or the default */
    LiveCounters(Path directory) {
        this.directoryOverride = directory;
    }

    /** @return this process's live counters */
    public static LiveCounters process() {
        return PROCESS;
    }

    /**
     * @return {@code ${java.io.tmpdir}/linerate-<user>}, the user name reduced to letters, digits,
     *     {@code .}, {@code _} and {@code -}
     */
    public static Path defaultDirectory() {
        String user = System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "linerate-" + (user.isEmpty() ? "unknown" : user));
    }

    /**
     * Sets the directory of the next counters file; a file already open stays where it is.
     *
     * @param dir the directory, or null to use the system property or the default again
     */
    public synchronized void directory(Path dir) {
        this.directoryOverride = dir;
    }

    /** @return the directory the next counters file is made in */
    public synchronized Path directory() {
        if (directoryOverride != null) {
            return directoryOverride;
        }
        String p = System.getProperty(DIRECTORY_PROPERTY);
        return p == null || p.isBlank() ? defaultDirectory() : Path.of(p);
    }

    /**
     * @return why live counters cannot work in this JVM, or empty when they can. Agrona 2 reaches
     *     {@code jdk.internal.misc.Unsafe}, which Java 17 exports only to a JVM started with
     *     {@value #AGRONA_JVM_OPTION} (the {@code linerate} jar's manifest says so itself)
     */
    public static Optional<String> unavailabilityCause() {
        return Optional.ofNullable(AgronaCheck.CAUSE);
    }

    /** @return the counters file while it is open */
    public Optional<Path> file() {
        return Optional.ofNullable(openFile);
    }

    /**
     * Keeps the counters file open until the hold is closed, so that a run of several transfers
     * has one file throughout (and stale files are removed at its start).
     *
     * @return the hold, to close when the run ends; it holds nothing when the file cannot be made
     */
    public Hold hold() {
        CountersFile f = acquire();
        return new Hold(f == null ? () -> { } : this::release);
    }

    /**
     * Registers a running transfer.
     *
     * @param label what runs, such as {@code stream udp4 1400 B 10.000 s}; at most 380 characters are kept
     * @return its counters, to close when the transfer ends; detached counters when the file
     *     cannot be made or is full
     */
    public TransferCounters transfer(String label) {
        CounterSlots slots = slots(CounterGroup.Kind.TRANSFER, label, TransferCounters.types());
        return new TransferCounters(slots);
    }

    /**
     * Registers the progress of a run of several transfers.
     *
     * @param label what runs, such as {@code loopback suite}
     * @param total steps in all
     * @return its counters, to close when the run ends; detached when the file cannot be made or is full
     */
    public RunProgress progress(String label, long total) {
        return new RunProgress(slots(CounterGroup.Kind.PROGRESS, label, RunProgress.types()), total);
    }

    private CounterSlots slots(CounterGroup.Kind kind, String label, CounterType[] types) {
        CountersFile f = acquire();
        if (f == null) {
            return CounterSlots.detached(types);
        }
        try {
            return CounterSlots.allocate(f, nextGroupId.getAndIncrement(), kind, label, this::release, types);
        } catch (IllegalStateException e) {
            release();
            warnOnce("the counters file " + f.path() + " is full (" + CountersLayout.COUNTER_CAPACITY
                    + " counters); '" + label + "' runs without live counters");
            return CounterSlots.detached(types);
        }
    }

    private synchronized CountersFile acquire() {
        if (file == null) {
            if ("false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "true").strip())) {
                return null;
            }
            Optional<String> cause = unavailabilityCause();
            if (cause.isPresent()) {
                warnOnce("live counters are off: " + cause.get());
                return null;
            }
            Path dir = directory();
            try {
                for (StaleCounterFiles.Removed r : StaleCounterFiles.sweep(dir, null)) {
                    LOG.warn("removed stale counters file {}: {}", r.file(), r.reason());
                }
                file = CountersFile.create(dir, pid, processStartMillis);
            } catch (IOException | RuntimeException e) {
                warnOnce(String.format(Locale.ROOT, "live counters are off: cannot create a counters file in %s: %s",
                        dir, e));
                return null;
            }
            openFile = file.path();
            installShutdownHook();
            LOG.debug("live counters in {}", openFile);
        }
        users++;
        return file;
    }

    private synchronized void release() {
        if (users == 0 || --users > 0) {
            return;
        }
        CountersFile f = file;
        file = null;
        openFile = null;
        try {
            f.close();
            LOG.debug("removed live counters file {}", f.path());
        } catch (RuntimeException e) {
            LOG.warn("{}", e.getMessage());
        }
    }

    private void installShutdownHook() {
        if (hookInstalled) {
            return;
        }
        hookInstalled = true;
        // deletes only: threads still running during shutdown may write their counters, so the
        // mapping stays; the hook takes no lock, since the thread that called System.exit may hold one
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Path p = openFile;
            if (p != null) {
                try {
                    java.nio.file.Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // the next process's sweep removes it
                }
            }
        }, "linerate-counters-cleanup"));
    }

    private synchronized void warnOnce(String message) {
        if (!message.equals(lastFailure)) {
            lastFailure = message;
            LOG.warn("{}", message);
        }
    }

    /** Keeps the counters file open; from {@link #hold()}. */
    public static final class Hold implements AutoCloseable {
        private final Runnable release;
        private boolean closed;

        private Hold(Runnable release) {
            this.release = release;
        }

        /** Lets the file go (it is removed when nothing else holds it). Idempotent. */
        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                release.run();
            }
        }
    }

    /** Tries Agrona's Unsafe access once, when first asked. */
    private static final class AgronaCheck {
        static final String CAUSE = check();

        private static String check() {
            try {
                new org.agrona.concurrent.UnsafeBuffer(new byte[8]).putLongRelease(0, 1);
                return null;
            } catch (LinkageError e) {
                return "Agrona cannot reach jdk.internal.misc.Unsafe; start the JVM with " + AGRONA_JVM_OPTION;
            }
        }
    }
}
