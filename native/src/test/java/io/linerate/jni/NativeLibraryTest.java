package io.linerate.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {
    private static final String AFPACKET = "linerate-afpacket";
    private static final String LINUX_ONLY = "AF_PACKET exists only on Linux";


    /** Records which ways were tried; each answers as told. */
    private static final class FakeWays implements NativeLibrary.Ways {
        final String packed;
        final UnsatisfiedLinkError library;
        final List<String> tried = new ArrayList<>();

        FakeWays(String packed, UnsatisfiedLinkError library) {
            this.packed = packed;
            this.library = library;
        }

        @Override
        public String packed() {
            tried.add("packed");
            return packed;
        }

        @Override
        public void library() {
            tried.add("library");
            if (library != null) {
                throw library;
            }
        }
    }

    @Test
    void thePackedLibraryComesFirstAndNothingElseIsTriedWhenItLoads() {
        FakeWays w = new FakeWays(null, null);
        assertThat(NativeLibrary.load("Linux", w, AFPACKET, LINUX_ONLY)).isNull();
        assertThat(w.tried).containsExactly("packed");
    }

    @Test
    void aPackedLibraryThatCannotBeExtractedFallsBackToLoadLibrary() {
        FakeWays w = new FakeWays("/META-INF/native/linux-x86_64/liblinerate-afpacket.so cannot be extracted: "
                + "java.nio.file.AccessDeniedException: /tmp", null);
        assertThat(NativeLibrary.load("Linux", w, AFPACKET, LINUX_ONLY)).isNull();
        assertThat(w.tried).containsExactly("packed", "library");
    }

    @Test
    void whenBothWaysFailTheCauseSaysWhatEachTried() {
        FakeWays w = new FakeWays("library is built for linux-x86_64 only, and os.arch is 'aarch64'",
                new UnsatisfiedLinkError("no linerate-afpacket in java.library.path: /usr/lib"));
        String why = NativeLibrary.load("Linux", w, AFPACKET, LINUX_ONLY);
        assertThat(why).startsWith("native library not loaded: the jar's library is built for linux-x86_64 only, "
                        + "and os.arch is 'aarch64'; System.loadLibrary(\"linerate-afpacket\") with java.library.path=")
                .endsWith(": no linerate-afpacket in java.library.path: /usr/lib");
        assertThat(w.tried).containsExactly("packed", "library");
    }

    @Test
    void notLinuxTriesNothing() {
        FakeWays w = new FakeWays(null, null);
        assertThat(NativeLibrary.load("Mac OS X", w, AFPACKET, LINUX_ONLY)).isEqualTo("not Linux: os.name is 'Mac OS X'; AF_PACKET exists only on Linux");
        assertThat(w.tried).isEmpty();
    }

    @Test
    void eachLibraryIsNamedByItsOwnNameAndReason() {
        FakeWays w = new FakeWays("/META-INF/native/linux-x86_64/liblinerate-native.so is not on the class path",
                new UnsatisfiedLinkError("no linerate-native in java.library.path: /usr/lib"));
        assertThat(NativeLibrary.load("Linux", w, "linerate-native", "perf_event_open exists only on Linux"))
                .startsWith("native library not loaded: the jar's /META-INF/native/linux-x86_64/liblinerate-native.so "
                        + "is not on the class path; System.loadLibrary(\"linerate-native\") with java.library.path=")
                .endsWith(": no linerate-native in java.library.path: /usr/lib");
        assertThat(NativeLibrary.load("Windows 11", w, "linerate-native", "perf_event_open exists only on Linux"))
                .isEqualTo("not Linux: os.name is 'Windows 11'; perf_event_open exists only on Linux");
    }

    @Test
    void theResourceIsTheLibraryFileUnderTheSharedDirectory() {
        NativeLibrary lib = NativeLibrary.of("linerate-afpacket", LINUX_ONLY, MethodHandles.lookup());
        assertThat(lib.name()).isEqualTo("linerate-afpacket");
        assertThat(lib.resource()).isEqualTo("/META-INF/native/linux-x86_64/liblinerate-afpacket.so");
    }

    @Test
    void aNameThatIsNoLibraryNameIsRefused() {
        assertThatThrownBy(() -> NativeLibrary.of("../evil", LINUX_ONLY, MethodHandles.lookup()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("library name '../evil' is not valid; allowed: 1..63 of a-z, 0-9 and '-', "
                        + "starting with a letter or digit");
    }

    @Test
    void aLibraryMissingFromTheJarAndThePathSaysSoAndKeepsSayingIt() {
        linuxOnly();
        NativeLibrary lib = NativeLibrary.of("linerate-nonexistent", LINUX_ONLY, MethodHandles.lookup());
        String why = lib.tryLoad();
        assertThat(why).startsWith("native library not loaded: the jar's "
                        + "/META-INF/native/linux-x86_64/liblinerate-nonexistent.so is not on the class path; "
                        + "System.loadLibrary(\"linerate-nonexistent\") with java.library.path=")
                .contains("linerate-nonexistent");
        assertThat(lib.tryLoad()).isSameAs(why);
        assertThatThrownBy(lib::ensureLoaded).isInstanceOf(UnsatisfiedLinkError.class).hasMessage(why);
    }

    @Test
    void theSharedLibraryLoadsFromThisModulesClasses() {
        linuxOnly();
        assertThat(io.linerate.jni.internal.Jni.LIBRARY.tryLoad()).isNull();
        assertThat(io.linerate.jni.internal.Jni.strerror(Errno.EINVAL)).isEqualTo("Invalid argument");
    }

    private static void linuxOnly() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").startsWith("Linux"),
                "the libraries are built for Linux; this host runs " + System.getProperty("os.name"));
    }
}
