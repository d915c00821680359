package io.linerate.jni;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrnoTest {

    @Test
    void aNegatedErrnoAsAJniFunctionReturnsItIsNamedAsThePositiveOne() {
        // asm-generic/errno.h: EOPNOTSUPP 95, ENOBUFS 105; errno-base.h: EPERM 1
        assertThat(Errno.name(-95)).isEqualTo("EOPNOTSUPP");
        assertThat(Errno.name(95)).isEqualTo("EOPNOTSUPP");
        assertThat(Errno.name(-105)).isEqualTo("ENOBUFS");
        assertThat(Errno.name(1)).isEqualTo("EPERM");
    }

    @Test
    void anErrnoNotNamedHereIsGivenByNumber() {
        assertThat(Errno.name(-133)).isEqualTo("errno 133");
    }

    @Test
    void describeGivesTheNameAndTheCLibrarysText() {
        // glibc's strerror texts (string/_strerror.c, sysdeps/gnu/errlist.h), the same as the built-in table's
        assertThat(Errno.describe(-95)).isEqualTo("EOPNOTSUPP (Operation not supported)");
        assertThat(Errno.describe(13)).isEqualTo("EACCES (Permission denied)");
        assertThat(Errno.describe(-110)).isEqualTo("ETIMEDOUT (Connection timed out)");
    }

    @Test
    void anErrnoOnlyTheCLibraryNamesGetsItsTextWhenTheLibraryIsLoaded() {
        // EHOSTUNREACH (113) is not in the built-in table: its text comes from strerror_r or is unknown
        String text = Errno.describe(-113);
        if (io.linerate.jni.internal.Jni.LIBRARY.tryLoad() == null) {
            assertThat(text).isEqualTo("errno 113 (No route to host)");
        } else {
            assertThat(text).isEqualTo("errno 113 (unknown error)");
        }
    }
}
