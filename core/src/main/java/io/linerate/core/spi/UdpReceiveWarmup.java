package io.linerate.core.spi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the JDK's datagram receive path and linerate's per-datagram accounting ({@link SequenceTracker},
 * {@link Rfc3550Jitter}, {@link DatagramWait}) over a private loopback socket pair before a server
 * takes its first test, so that the JIT has compiled them by then.
 *
 * <p>Why: a fresh JVM interprets the receive loop until the JIT compiles it. With the kernel's default
 * receive buffer (some 90 datagrams of 1400 bytes, 10 ms at 100 Mbit/s) and other processes taking
 * the CPU, a fresh {@code serve --iperf3} lost 2 to 6% of its first 100 Mbit/s test, where its later
 * tests and {@code iperf3 -s} lost none. Servers call {@link #once} as they start; it moves
 * {@value #DATAGRAMS} datagrams of {@value #PAYLOAD_BYTES} bytes over 127.0.0.1, read both unconnected
 * ({@code receive}, as {@code serve --iperf2} reads) and connected ({@code read}, as the iperf3 and
 * agent ends read), and costs some hundred ms of start-up, once per JVM.
 */
public final class UdpReceiveWarmup {
    /** Datagrams moved by one warm-up. */
    public static final int DATAGRAMS = 20_000;
    /** Bytes per warm-up datagram: the size the receivers are benchmarked with. */
    public static final int PAYLOAD_BYTES = 1400;
    /** Datagrams sent between two drains: well inside the default receive buffer. */
    private static final int BURST = 16;
    /** The longest {@link #once()} takes: a loaded host slows it, and a server must still start. */
    public static final Duration BOUND = Duration.ofSeconds(3);
    private static final Logger LOG = LoggerFactory.getLogger(UdpReceiveWarmup.class);
    private static final AtomicBoolean DONE = new AtomicBoolean();

    private UdpReceiveWarmup() {}

    /**
     * {@link #once(Duration)} bounded by {@link #BOUND}.
     *
     * @return datagrams read by this call: 0 on a later call
     */
    public static long once() {
        return once(BOUND);
    }

    /**
     * Warms the receive path the first time it is called in this JVM; later calls return at once.
     * A loopback that refuses (no 127.0.0.1 in this namespace) ends it early: the server then starts cold.
     *
     * @param bound the longest the warm-up may take
     * @return datagrams read by this call: 0 on a later call
     */
    public static long once(Duration bound) {
        return DONE.compareAndSet(false, true) ? run(DATAGRAMS, bound) : 0;
    }

    /**
     * @param datagrams how many to move, at least 0
     * @param bound the longest it may take
     * @return datagrams read; fewer than asked when the bound ran out, and the distinct ones read when
     *     loopback failed (logged at debug)
     */
    static long run(int datagrams, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        InetAddress lo = InetAddress.getLoopbackAddress();
        SequenceTracker tracker = new SequenceTracker();
        Rfc3550Jitter jitter = new Rfc3550Jitter();
        try (DatagramChannel rx = DatagramChannel.open(); DatagramChannel tx = DatagramChannel.open();
             Selector selector = Selector.open()) {
            rx.bind(new InetSocketAddress(lo, 0)).configureBlocking(false);
            tx.bind(new InetSocketAddress(lo, 0)).connect(rx.getLocalAddress()).configureBlocking(false);
            rx.register(selector, SelectionKey.OP_READ);
            ByteBuffer out = ByteBuffer.allocateDirect(PAYLOAD_BYTES);
            ByteBuffer in = ByteBuffer.allocateDirect(65536);
            DatagramWait wait = new DatagramWait(selector);
            long read = 0;
            long seq = 0;
            while (read < datagrams && System.nanoTime() - deadline < 0) {
                if (read >= datagrams / 2 && !rx.isConnected()) {
                    rx.connect(tx.getLocalAddress()); // the second half reads as a connected end does
                }
                for (int i = 0; i < BURST; i++) {
                    tx.write(out.clear().putLong(0, seq++).putLong(8, System.nanoTime()));
                }
                long got = drain(rx, in, tracker, jitter, wait);
                if (got == 0) {
                    wait.await(1);
                    got = drain(rx, in, tracker, jitter, wait);
                }
                read += got;
            }
            LOG.debug("UDP receive warm-up: {} datagrams read, {} distinct, jitter {} ns", read, tracker.distinct(),
                    (long) jitter.nanos());
            return read;
        } catch (IOException e) {
            LOG.debug("the UDP receive warm-up over {} ended early: {}", lo, e.toString());
            return tracker.distinct();
        }
    }

    /** @return datagrams read until the socket was empty */
    private static long drain(DatagramChannel rx, ByteBuffer in, SequenceTracker tracker, Rfc3550Jitter jitter,
                              DatagramWait wait) throws IOException {
        long got = 0;
        while (true) {
            in.clear();
            int n = rx.isConnected() ? rx.read(in) : rx.receive(in) != null ? in.position() : 0;
            if (n < 16) {
                return got;
            }
            tracker.onArrival(in.getLong(0));
            jitter.onArrival(in.getLong(8), System.nanoTime());
            wait.read();
            got++;
        }
    }
}
