package io.linerate.socket.internal;

import io.linerate.core.spi.engine.TcpFigures;
import io.linerate.core.spi.engine.TcpProbe;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.TcpInfoReader;

/**
 * The engine's per-interval reading of the sending socket's {@code TCP_INFO}, on the measuring
 * thread with a reader of its own ({@link TcpInfoReader} is one per thread): no allocation, no
 * logging. The congestion window is {@code tcpi_snd_cwnd × tcpi_snd_mss}, as iperf3 computes its
 * {@code Cwnd}. A failed {@code getsockopt} leaves the intervals it bounds without figures; how many
 * failed is {@link #failures()}.
 */
final class SenderTcpProbe implements TcpProbe {
    private final NativeSocket sender;
    private final TcpInfoReader reader = new TcpInfoReader();
    private int failures;

    SenderTcpProbe(NativeSocket sender) {
        this.sender = sender;
    }

    @Override
    public boolean read(TcpFigures into) {
        try {
            reader.read(sender);
        } catch (NativeSocketException e) {
            failures++;
            return false;
        }
        long total = reader.totalRetrans();
        if (total < 0) {
            return false; // a structure too short to hold it
        }
        long cwnd = reader.sndCwnd() < 0 || reader.sndMss() < 0 ? -1 : reader.sndCwnd() * reader.sndMss();
        into.set(total, cwnd, reader.rttMicros(), reader.rttVarMicros(), reader.pacingRate(), reader.deliveryRate());
        return true;
    }

    /** @return readings whose {@code getsockopt(TCP_INFO)} failed; read after the run */
    int failures() {
        return failures;
    }
}
