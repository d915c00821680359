package io.linerate.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.jni.LayoutCheck.Field;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mechanism, with a native side written in Java; each module checks its own structs against its library. */
class LayoutCheckTest {
    // struct pollfd (<poll.h>): int fd; short events; short revents
    private static final List<Field> POLLFD = List.of(
            new Field("sizeof(struct pollfd)", 8),
            new Field("offsetof(pollfd, events)", 4),
            new Field("offsetof(pollfd, revents)", 6));

    /** @return a native side that writes {@code values} as linerate_layout_write does */
    private static LayoutCheck.NativeValues writing(int... values) {
        return (out, capacity) -> {
            if (capacity < values.length) {
                return -Errno.ENOSPC;
            }
            for (int i = 0; i < values.length; i++) {
                out.putInt(4 * i, values[i]);
            }
            return values.length;
        };
    }

    @Test
    void valuesAreReadInTheOrderTheFieldsAreListed() {
        List<Integer> read = LayoutCheck.fromNative(POLLFD, writing(8, 4, 6));
        assertThat(read).containsExactly(8, 4, 6);
        assertThat(LayoutCheck.mismatches(POLLFD, read)).isEmpty();
    }

    @Test
    void eachDisagreementNamesTheFieldAndBothValues() {
        List<Integer> read = LayoutCheck.fromNative(POLLFD, writing(16, 4, 8));
        assertThat(LayoutCheck.mismatches(POLLFD, read)).containsExactly(
                "sizeof(struct pollfd): headers say 16, Java uses 8",
                "offsetof(pollfd, revents): headers say 8, Java uses 6");
    }

    @Test
    void aNativeSideListingAnotherNumberOfValuesIsRefused() {
        assertThatThrownBy(() -> LayoutCheck.fromNative(POLLFD, writing(8, 4)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("native layout lists 2 values; Java lists 3");
    }

    @Test
    void aNativeSideThatFailsIsNamedByItsErrno() {
        assertThatThrownBy(() -> LayoutCheck.fromNative(POLLFD, (out, capacity) -> -Errno.ENOSPC))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the native layout function failed: ENOSPC (No space left on device)");
    }

    @Test
    void anEmptyListIsRefusedWithTheAllowedRange() {
        assertThatThrownBy(() -> LayoutCheck.fromNative(List.of(), writing()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a layout check lists 0 fields; allowed: 1..1024");
    }
}
