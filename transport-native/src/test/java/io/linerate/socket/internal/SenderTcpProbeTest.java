package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.TcpFigures;
import io.linerate.socket.TcpInfoReader;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The native transport's per-interval TCP_INFO probe on a connected loopback pair. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SenderTcpProbeTest {
    private static final int CALLS = 20_000;

    private static TransferSpec spec() {
        return TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4).build();
    }

    @Test
    void itGivesTheSendersTcpInfoWithCwndInBytes() throws Exception {
        try (TcpEnds ends = TcpEnds.open(spec())) {
            TcpFigures f = new TcpFigures();
            assertThat(new SenderTcpProbe(ends.sender).read(f)).isTrue();
            // read the same socket independently: nothing was sent, so nothing moves between the two reads
            TcpInfoReader r = new TcpInfoReader().read(ends.sender);
            assertThat(f.totalRetransmits()).isZero().isEqualTo(r.totalRetrans());
            // tcpi_snd_mss is the kernel's mss_cache, which TCP_MAXSEG also reports
            assertThat(r.sndMss()).isEqualTo(ends.sender.options().maxSegment());
            assertThat(f.cwndBytes()).isPositive().isEqualTo(r.sndCwnd() * ends.sender.options().maxSegment());
            assertThat(f.rttMicros()).isEqualTo(r.rttMicros());
            assertThat(f.rttVarMicros()).isEqualTo(r.rttVarMicros());
            assertThat(f.pacingRate()).isEqualTo(r.pacingRate());
            assertThat(f.deliveryRate()).isEqualTo(r.deliveryRate());
        }
    }

    @Test
    void aClosedSocketGivesNoFigures() throws Exception {
        TcpEnds ends = TcpEnds.open(spec());
        SenderTcpProbe probe = new SenderTcpProbe(ends.sender);
        ends.close();
        TcpFigures f = new TcpFigures();
        assertThat(probe.read(f)).isFalse();
        assertThat(f.totalRetransmits()).as("left unset").isEqualTo(-1);
        assertThat(probe.failures()).isEqualTo(1);
    }

    /**
     * The probe runs once per interval on the measuring thread and must allocate nothing. Counted
     * with the thread's allocated-bytes counter over many calls after the JIT compiled them: a call
     * that allocated would show at least 16 bytes each; a one-off of the JIT or the counter
     * itself stays under 0.01 byte per call, and one of at most three rounds must show exactly 0.
     */
    @Test
    void aReadingAllocatesNothing() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        try (TcpEnds ends = TcpEnds.open(spec())) {
            SenderTcpProbe probe = new SenderTcpProbe(ends.sender);
            TcpFigures f = new TcpFigures();
            int read = calls(probe, f); // warm up
            assertThat(read).isEqualTo(CALLS);
            boolean clean = false;
            for (int round = 0; round < 3 && !clean; round++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                read = calls(probe, f);
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                assertThat(read).isEqualTo(CALLS);
                assertThat(allocated).as("bytes allocated by %d readings", CALLS).isLessThan(CALLS / 100);
                clean = allocated == 0;
            }
            assertThat(clean).as("one of three rounds allocated nothing").isTrue();
        }
    }

    private static int calls(SenderTcpProbe probe, TcpFigures f) {
        int read = 0;
        for (int i = 0; i < CALLS; i++) {
            if (probe.read(f)) {
                read++;
            }
        }
        return read;
    }
}
