package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.TransferException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunCloserTest {

    @Test
    void everythingIsClosedLastOpenedFirstAndAFailureDoesNotStopTheRest() {
        List<String> closed = new ArrayList<>();
        RunCloser c = new RunCloser();
        c.add(() -> closed.add("rules"));
        c.add(() -> {
            closed.add("rings");
            throw new IllegalStateException("munmap failed");
        });
        c.add(() -> closed.add("socket"));
        c.add(() -> {
            closed.add("thread");
            throw new TransferException("could not remove flow steering rules: EBUSY", null);
        });

        assertThatThrownBy(c::close)
                .isInstanceOf(TransferException.class)
                .hasMessage("could not remove flow steering rules: EBUSY")
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .satisfies(s -> assertThat(s).hasMessage("munmap failed")));
        // registered rules, rings, socket, thread: closed in the reverse order, all four
        assertThat(closed).containsExactly("thread", "socket", "rings", "rules");
    }

    @Test
    void aFailureThatIsNotATransferExceptionIsWrappedNamingIt() {
        RunCloser c = new RunCloser();
        c.add(() -> {
            throw new java.io.IOException("EIO");
        });
        assertThatThrownBy(c::close).isInstanceOf(TransferException.class)
                .hasMessage("could not release a raw run's resources: EIO");
    }

    @Test
    void underAFailedRunACloseFailureIsSuppressedOntoIt() {
        List<String> closed = new ArrayList<>();
        IllegalStateException run = new IllegalStateException("listener gave up");
        assertThatThrownBy(() -> {
            try (RunCloser c = new RunCloser()) {
                c.add(() -> closed.add("rules"));
                c.add(() -> {
                    throw new TransferException("could not remove flow steering rules: EBUSY", null);
                });
                throw run;
            }
        }).isSameAs(run);
        assertThat(run.getSuppressed()).singleElement()
                .satisfies(s -> assertThat(s).hasMessage("could not remove flow steering rules: EBUSY"));
        assertThat(closed).containsExactly("rules");
    }

    @Test
    void closingTwiceClosesOnce() throws Exception {
        List<String> closed = new ArrayList<>();
        RunCloser c = new RunCloser();
        c.add(() -> closed.add("socket"));
        c.close();
        c.close();
        assertThat(closed).containsExactly("socket");
    }
}
