package io.linerate.afpacket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NativeLoaderTest {

    /** Records which ways were tried; each answers as told. */
    private static final class FakeWays implements NativeLoader.Ways {
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
        assertThat(NativeLoader.load("Linux", w)).isNull();
        assertThat(w.tried).containsExactly("packed");
    }

    @Test
    void aPackedLibraryThatCannotBeExtractedFallsBackToLoadLibrary() {
        FakeWays w = new FakeWays("/META-INF/native/linux-x86_64/liblinerate-afpacket.so cannot be extracted: "
                + "java.nio.file.AccessDeniedException: /tmp", null);
        assertThat(NativeLoader.load("Linux", w)).isNull();
        assertThat(w.tried).containsExactly("packed", "library");
    }

    @Test
    void whenBothWaysFailTheCauseSaysWhatEachTried() {
        FakeWays w = new FakeWays("library is built for linux-x86_64 only, and os.arch is 'aarch64'",
                new UnsatisfiedLinkError("no linerate-afpacket in java.library.path: /usr/lib"));
        String why = NativeLoader.load("Linux", w);
        assertThat(why).startsWith("native library not loaded: the jar's library is built for linux-x86_64 only, "
                        + "and os.arch is 'aarch64'; System.loadLibrary(\"linerate-afpacket\") with java.library.path=")
                .endsWith(": no linerate-afpacket in java.library.path: /usr/lib");
        assertThat(w.tried).containsExactly("packed", "library");
    }

    @Test
    void notLinuxTriesNothing() {
        FakeWays w = new FakeWays(null, null);
        assertThat(NativeLoader.load("Mac OS X", w)).isEqualTo("not Linux: os.name is 'Mac OS X'; AF_PACKET exists only on Linux");
        assertThat(w.tried).isEmpty();
    }
}
