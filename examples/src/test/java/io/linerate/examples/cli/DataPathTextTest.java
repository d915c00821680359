package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.DataPath;
import org.junit.jupiter.api.Test;

/** The {@code # data path:} line: each end's calls, or the call alone where the agent's end counted none. */
class DataPathTextTest {
    @Test
    void eachEndNamesItsCallsAndTheirMean() {
        DataPath p = new DataPath(new DataPath.End("sendmmsg(2)", 10, 320, 32), new DataPath.End("recvmmsg(2)", 40, 300, 9),
                "");
        assertThat(DataPathText.line(p)).isEqualTo("# data path: sender sendmmsg(2), 10 calls, 32.0 per call (at most 32); "
                + "receiver recvmmsg(2), 40 calls, 7.5 per call (at most 9)");
    }

    @Test
    void oneCallIsSingular() {
        // --messages 45 with --gso: one sendmmsg(2) of 45 segments, received in two calls
        DataPath p = new DataPath(new DataPath.End("sendmmsg(2) with UDP_SEGMENT (1460-byte segments)", 1, 45, 45),
                new DataPath.End("recvmmsg(2) with UDP_GRO (at most 44 segments per coalesced datagram)", 2, 45, 44), "");
        assertThat(DataPathText.line(p)).isEqualTo("# data path: sender sendmmsg(2) with UDP_SEGMENT (1460-byte "
                + "segments), 1 call, 45.0 per call (at most 45); receiver recvmmsg(2) with UDP_GRO (at most 44 segments "
                + "per coalesced datagram), 2 calls, 22.5 per call (at most 44)");
    }

    @Test
    void anUnreportedEndPrintsNoCountsButTheNoteStays() {
        DataPath p = new DataPath(DataPath.End.unreported("the agent's sending end"),
                new DataPath.End("recv(2) with MSG_TRUNC", 5, 5, 1), DataPath.TRUNCATED);
        assertThat(DataPathText.line(p)).isEqualTo("# data path: sender the agent's sending end: calls not reported (an "
                + "agent serving on nio names none); receiver recv(2) with MSG_TRUNC, 5 calls, 1.0 per call (at most 1); "
                + DataPath.TRUNCATED);
    }
}
