package io.linerate.core.spi.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class TcpInfoWindowTest {

    /** A connection whose tcpi_total_retrans takes the given values, one per read; then it is gone, or a read fails. */
    private static final class Scripted implements TcpConnectionInfo {
        private final Deque<Long> retrans;
        private final boolean failWhenDone;
        private long current = -1;

        Scripted(List<Long> retrans, boolean failWhenDone) {
            this.retrans = new ArrayDeque<>(retrans);
            this.failWhenDone = failWhenDone;
        }

        @Override
        public boolean read() throws IOException {
            if (retrans.isEmpty()) {
                if (failWhenDone) {
                    throw new IOException("recvmsg: EAGAIN");
                }
                return false;
            }
            current = retrans.poll();
            return true;
        }

        @Override public String describe() { return "127.0.0.1:1 -> 127.0.0.1:2"; }
        @Override public long state() { return 1; }
        @Override public long totalRetrans() { return current; }
        @Override public long sndCwnd() { return 10; }
        @Override public long sndMss() { return 1448; }
        @Override public long rcvMss() { return 536; }
        @Override public long rttMicros() { return 40; }
        @Override public long rttVarMicros() { return 20; }
        @Override public long pacingRate() { return -1; }
        @Override public long bytesAcked() { return 0; }
        @Override public long deliveryRate() { return 1000; }
    }

    private static TcpInfoWindow window(List<Long> retrans, boolean failWhenDone) {
        return TcpInfoWindow.of("src", new TcpInfoSources.Found(new Scripted(retrans, failWhenDone), null));
    }

    @Test
    void theWindowIsTheSumOfItsPartsAndLeavesOutWhatCameBetween() {
        // part 1 from 1 to 3 (2), 4 retransmitted between the parts, part 2 from 7 to 8 (1); 9 at the end
        TcpInfoWindow w = window(List.of(1L, 3L, 7L, 8L, 9L), false);
        w.open();
        w.close();
        w.open();
        w.close();

        LatencyTcpInfo.End e = w.end();

        assertThat(e.stats()).contains(new TcpStats(3, 9, 14480, 40, 20, -1, 1000, 1448, 536));
        assertThat(e.source()).isEqualTo("src");
    }

    @Test
    void anOpenPartIsClosedAtTheEndAndAConnectionMadeInsideCountsFromZero() {
        TcpInfoWindow w = window(List.of(5L, 6L), false);
        w.openAtStart();

        assertThat(w.end().stats().orElseThrow().windowRetransmits()).isEqualTo(5);
    }

    @Test
    void aConnectionTheKernelNoLongerHasSaysSoInsteadOfZeros() {
        TcpInfoWindow w = window(List.of(0L), false);
        w.open();

        LatencyTcpInfo.End e = w.end();

        assertThat(e.stats()).isEmpty();
        assertThat(e.unavailable()).isEqualTo("the kernel no longer has the connection 127.0.0.1:1 -> 127.0.0.1:2");
    }

    @Test
    void aFailedReadSaysWhy() {
        TcpInfoWindow w = window(List.of(0L), true);
        w.open();

        assertThat(w.end().unavailable()).contains("recvmsg: EAGAIN");
    }

    @Test
    void noSourceSaysWhy() {
        LatencyTcpInfo.End e = TcpInfoWindow.of("src", new TcpInfoSources.Found(null, TcpInfoSources.NO_SOURCE)).end();

        assertThat(e.unavailable()).isEqualTo(TcpInfoSources.NO_SOURCE);
    }
}
