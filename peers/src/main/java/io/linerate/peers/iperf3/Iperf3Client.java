package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.Bound;
import io.linerate.core.IntervalListener;
import io.linerate.core.PeerDirection;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * linerate as a client of an unmodified iperf3 server ({@code iperf3 -s}), speaking iperf3's
 * control protocol: the cookie, then one state byte per step (PARAM_EXCHANGE, CREATE_STREAMS,
 * TEST_START, TEST_RUNNING, TEST_END, EXCHANGE_RESULTS, DISPLAY_RESULTS, IPERF_DONE), the
 * parameters and both ends' results as length-prefixed JSON, the cookie again first on every TCP
 * data connection, and UDP's connect message and reply. UDP datagrams carry iperf3's header
 * ({@link Iperf3DatagramHeader}); receiving ({@link Iperf3Options#reverse()}), linerate counts loss,
 * reordering and RFC 3550 jitter from it. {@link #runBidir} runs iperf3's bidirectional test
 * (iperf3 3.7+, its {@code --bidir}): both send at once over {@code parallel} streams each way.
 *
 * <p>Every connect, read and write is bounded by the spec's I/O timeout. A busy server
 * (ACCESS_DENIED), a server error, and a server that stops or goes away mid-test each end the run
 * with an {@link Iperf3Exception} naming the server and the step, with every socket and thread of
 * the run closed. An interrupt of the calling thread while the test runs ends it as iperf3's client
 * ends on SIGINT: CLIENT_TERMINATE, no results exchanged, and a result of linerate's own counts
 * until then, {@link Iperf3Result#interrupted()}. The spec's payload is iperf3's {@code -l}, its rate the whole test's (iperf3's
 * {@code -b} is per stream: linerate sends rate / streams), its bound a duration (whole seconds are
 * sent to the server, which only uses them for its own time-out; linerate ends the test), bytes
 * ({@code -n}) or messages ({@code -k}). Its warm-up and full log are not used; its interval is that
 * of the samples a run with a listener gets.
 */
public final class Iperf3Client {
    private Iperf3Client() {}

    /**
     * Runs one test against an iperf3 server.
     *
     * @param host the server's host name or address
     * @param port its port, 1..65535 (iperf3's default is 5201)
     * @param spec what to send: protocol, family, payload, bound, rate, socket options, I/O timeout
     * @param options reverse, parallel streams, UDP counter width, TCP drain
     * @return both ends' counts
     * @throws Iperf3Exception when the server refuses, fails, stops or cannot be reached
     * @throws IllegalArgumentException when the port is out of range or the UDP payload cannot hold iperf3's header
     */
    public static Iperf3Result run(String host, int port, TransferSpec spec, Iperf3Options options) throws Iperf3Exception {
        return run(host, port, spec, options, IntervalListener.NONE);
    }

    /**
     * Runs one test against an iperf3 server, as {@link #run(String, int, TransferSpec, Iperf3Options)}
     * does, passing linerate's own count of every spec interval (bytes and datagrams sent, or received
     * in reverse, summed over the streams) to {@code listener} as stream 0 of its direction, on the
     * calling thread. The streams' per-datagram paths are not touched: the counts are read from the
     * thread that watches the test, about every 20 ms.
     *
     * @param listener receives each interval's sample, and a last partial one
     * @return both ends' counts
     * @throws Iperf3Exception when the server refuses, fails, stops or cannot be reached
     * @throws IllegalArgumentException when the port is out of range or the UDP payload cannot hold iperf3's header
     */
    public static Iperf3Result run(String host, int port, TransferSpec spec, Iperf3Options options,
                                   IntervalListener listener) throws Iperf3Exception {
        Objects.requireNonNull(listener, "listener");
        return new Session(resolve(host, port, spec, options), spec, options, false, listener).run().get(0);
    }

    /**
     * Runs iperf3's bidirectional test (its {@code --bidir}, iperf3 3.7 and later) against an iperf3
     * server: linerate opens {@code options.parallel()} streams on which it sends, then as many on
     * which the server sends, and both directions run at once. The spec's rate and byte or message
     * count apply to each direction, split evenly over its streams; a count-bounded test ends when
     * both directions reached it.
     *
     * @param host the server's host name or address
     * @param port its port, 1..65535
     * @param spec what each direction sends
     * @param options parallel streams per direction, UDP counter width, TCP drain; {@code reverse}
     *     must be false (the test runs both directions)
     * @return each direction's counts from both ends
     * @throws Iperf3Exception when the server refuses, fails, stops or cannot be reached
     * @throws IllegalArgumentException when {@code options.reverse()} is set, the port is out of
     *     range or the UDP payload cannot hold iperf3's header
     */
    public static Iperf3BidirResult runBidir(String host, int port, TransferSpec spec, Iperf3Options options)
            throws Iperf3Exception {
        return runBidir(host, port, spec, options, IntervalListener.NONE);
    }

    /**
     * Runs iperf3's bidirectional test, as {@link #runBidir(String, int, TransferSpec, Iperf3Options)}
     * does, passing linerate's own count of every spec interval to {@code listener}: what it sent as
     * stream 0 {@link PeerDirection#FORWARD}, what it received as stream 0 {@link PeerDirection#REVERSE},
     * on the calling thread.
     *
     * @param listener receives each interval's two samples, and a last partial pair
     * @return each direction's counts from both ends
     * @throws Iperf3Exception when the server refuses, fails, stops or cannot be reached
     * @throws IllegalArgumentException when {@code options.reverse()} is set, the port is out of
     *     range or the UDP payload cannot hold iperf3's header
     */
    public static Iperf3BidirResult runBidir(String host, int port, TransferSpec spec, Iperf3Options options,
                                             IntervalListener listener) throws Iperf3Exception {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(listener, "listener");
        if (options.reverse()) {
            throw new IllegalArgumentException("reverse is set, but a bidirectional test runs both directions; "
                    + "allowed: reverse false");
        }
        List<Iperf3Result> r = new Session(resolve(host, port, spec, options), spec, options, true, listener).run();
        return new Iperf3BidirResult(r.get(0), r.get(1));
    }

    private static InetSocketAddress resolve(String host, int port, TransferSpec spec, Iperf3Options options)
            throws Iperf3Exception {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(options, "options");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range; allowed: 1..65535");
        }
        int header = Iperf3DatagramHeader.bytes(options.udpCounters64Bit());
        if (spec.protocol() == Protocol.UDP && spec.payloadBytes() < header) {
            throw new IllegalArgumentException("payload " + spec.payloadBytes() + " bytes is out of range: iperf3's UDP header takes "
                    + header + " bytes; allowed: " + header + " or more");
        }
        InetSocketAddress to = new InetSocketAddress(host, port);
        if (to.isUnresolved()) {
            throw new Iperf3Exception("cannot resolve the iperf3 server's host '" + host + "'");
        }
        return to;
    }

    /** One test's state; closes everything it opened. */
    private static final class Session {
        private final InetSocketAddress to;
        private final TransferSpec spec;
        private final Iperf3Options options;
        private final boolean udp;
        /** Both directions at once: the first {@code parallel} streams send, the rest receive. */
        private final boolean bidir;
        private final byte[] cookie = Iperf3Wire.newCookie();
        private final List<DataStream> streams = new ArrayList<>();
        private final long timeoutMillis;
        private ControlConnection control;
        private final IntervalListener listener;
        /** The calling thread was interrupted while the test ran: it ends as iperf3's client ends on SIGINT. */
        private boolean interrupted;

        Session(InetSocketAddress to, TransferSpec spec, Iperf3Options options, boolean bidir, IntervalListener listener) {
            this.listener = listener;
            this.to = to;
            this.spec = spec;
            this.options = options;
            this.udp = spec.protocol() == Protocol.UDP;
            this.bidir = bidir;
            this.timeoutMillis = Math.max(1, spec.ioTimeout().toMillis());
        }

        /** @return one result, or for a bidirectional test the forward one then the reverse one */
        List<Iperf3Result> run() throws Iperf3Exception {
            boolean started = false;
            try {
                control = ControlConnection.open(to, spec.ioTimeout(), cookie);
                control.expect(Iperf3State.PARAM_EXCHANGE, "the cookie");
                control.sendJson(ClientParameters.of(spec, options, bidir), "parameters");
                control.expect(Iperf3State.CREATE_STREAMS, "the parameters");
                createStreams();
                control.expect(Iperf3State.TEST_START, "creating the streams");
                started = true;
                DataStreams.receivers(streams, "linerate-iperf3-stream-", spec.ioTimeout().toNanos());
                control.expect(Iperf3State.TEST_RUNNING, "TEST_START");
                DataStreams.senders(streams, "linerate-iperf3-stream-");
                runUntilBound();
                if (interrupted) {
                    return Iperf3Terminate.results(streams, spec, options, bidir, timeoutMillis, control);
                }
                return finish();
            } catch (Iperf3Exception e) {
                if (started) {
                    terminate();
                }
                throw started ? new Iperf3Exception(e.getMessage() + " (" + partial() + ")", e.getCause()) : e;
            } finally {
                closeAll();
            }
        }

        /** iperf3 3.7+ opens a bidirectional test's sending streams first, then its receiving ones. */
        private void createStreams() throws Iperf3Exception {
            int n = options.parallel();
            int total = bidir ? 2 * n : n;
            Bound b = spec.bound();
            for (int i = 0; i < total; i++) {
                int id = i == 0 ? 1 : i + 2; // iperf3 numbers its streams 1, 3, 4, ...
                boolean send = bidir ? i < n : !options.reverse();
                int k = i % n;
                long bytes = b.kind() == Bound.Kind.BYTES && send ? Iperf3Wire.share(b.amount(), n, k) : 0;
                long msgs = b.kind() == Bound.Kind.MESSAGES && send ? Iperf3Wire.share(b.amount(), n, k) : 0;
                long rate = spec.rateBitsPerSecond() == 0 ? 0 : Math.max(1, Iperf3Wire.share(spec.rateBitsPerSecond(), n, k));
                Pace pace = new Pace(rate,
                        spec.pacingTimer().toNanos());
                try {
                    streams.add(udp
                            ? DataConnect.udpStream(id, to, send, options.udpCounters64Bit(), spec.payloadBytes(), bytes, msgs, pace,
                                    spec.ioTimeout(), spec.sendBufferBytes(), spec.receiveBufferBytes(), spec.trafficClass())
                            : DataConnect.tcpStream(id, to, cookie, send, spec.payloadBytes(), bytes, msgs, pace, spec.ioTimeout(),
                                    spec.sendBufferBytes(), spec.receiveBufferBytes(), spec.noDelay(), spec.trafficClass()));
                } catch (IOException e) {
                    throw new Iperf3Exception("iperf3 server " + control.server() + ": opening " + spec.protocol().label()
                            + " stream " + (i + 1) + " of " + total + " failed: " + e.getMessage(), e);
                }
            }
        }

        private boolean any(boolean senders) {
            return streams.stream().anyMatch(s -> s.sender() == senders);
        }

        /**
         * Waits for the bound: a duration's end; or, counted, every sender's budget spent and the
         * receivers' count reached (in a bidirectional test, both).
         */
        private void runUntilBound() throws Iperf3Exception {
            Bound b = spec.bound();
            long start = System.nanoTime();
            long deadline = b.kind() == Bound.Kind.DURATION ? start + b.amount() : Long.MAX_VALUE;
            boolean sending = any(true);
            boolean receiving = any(false);
            ClientIntervals intervals = new ClientIntervals(listener, start, spec.interval().toNanos(), udp);
            while (true) {
                boolean sendersDone = true;
                long bytes = 0;
                long msgs = 0;
                for (DataStream s : streams) {
                    if (s.failure() != null) {
                        throw new Iperf3Exception("iperf3 server " + control.server() + ": stream " + s.id + " failed: "
                                + s.failure().getMessage(), s.failure());
                    }
                    if (s.sender()) {
                        sendersDone &= s.finished();
                    } else {
                        bytes += s.bytes;
                        msgs += s.messages;
                    }
                }
                boolean receiversDone = (b.kind() == Bound.Kind.BYTES && bytes >= b.amount())
                        || (b.kind() == Bound.Kind.MESSAGES && msgs >= b.amount());
                long now = System.nanoTime();
                // a duration-bound sender only ends by failing, caught above
                interrupted |= Thread.interrupted();
                boolean over = (!sending || sendersDone) && (!receiving || receiversDone) || now >= deadline
                        || interrupted;
                intervals.check(streams, now, over);
                if (over) {
                    return;
                }
                long waitMillis = Math.max(1, Math.min(20, (deadline - now) / 1_000_000));
                try {
                    if (control.channel().waitReadable(waitMillis)) {
                        byte st = control.read("the test");
                        throw control.unexpected(st, "the test", "nothing before TEST_END");
                    }
                } catch (IOException e) {
                    throw new Iperf3Exception("iperf3 server " + control.server() + ": the control connection failed during the test: "
                            + e.getMessage(), e);
                }
            }
        }

        private List<Iperf3Result> finish() throws Iperf3Exception {
            boolean sending = any(true);
            for (DataStream s : streams) {
                s.ending();
                if (s.sender()) {
                    s.stop();
                }
            }
            if (sending) {
                joinAll(true);
                if (!udp && !options.tcpDrain().isZero()) {
                    try {
                        Thread.sleep(options.tcpDrain().toMillis());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new Iperf3Exception("interrupted while the server drained its streams");
                    }
                }
            }
            control.send(Iperf3State.TEST_END);
            control.expect(Iperf3State.EXCHANGE_RESULTS, "TEST_END");
            // the server closed its streams before EXCHANGE_RESULTS: what it sent is here or lost
            for (DataStream s : streams) {
                if (!s.sender()) {
                    s.stop();
                }
            }
            joinAll(false);
            control.sendJson(ClientCounts.results(streams, udp, options.reverse()), "client results");
            List<Iperf3RemoteStream> remote = parseResults(control.readJson("server results"));
            control.expect(Iperf3State.DISPLAY_RESULTS, "the results");
            control.send(Iperf3State.IPERF_DONE);
            Optional<Boolean> readAll = Optional.empty();
            if (!udp && sending) {
                boolean all = true;
                boolean known = true;
                for (DataStream s : streams) {
                    if (!s.sender()) {
                        continue;
                    }
                    s.checkServerReadAll(timeoutMillis);
                    if (s.serverReadAll == null) {
                        known = false;
                    } else {
                        all &= s.serverReadAll;
                    }
                }
                readAll = !all ? Optional.of(false) : known ? Optional.of(true) : Optional.empty();
            }
            List<Iperf3Result> out = new ArrayList<>();
            if (!bidir) {
                out.add(new Iperf3Result(spec, options, control.server(), ClientCounts.local(streams, udp), remote, readAll,
                        false));
                return out;
            }
            List<DataStream> fwd = streams.stream().filter(DataStream::sender).toList();
            List<DataStream> rev = streams.stream().filter(s -> !s.sender()).toList();
            out.add(new Iperf3Result(spec, options, control.server(), ClientCounts.local(fwd, udp),
                    ClientCounts.remoteOf(fwd, streams, remote, control.server()), readAll, true));
            out.add(new Iperf3Result(spec, options.withReverse(true), control.server(), ClientCounts.local(rev, udp),
                    ClientCounts.remoteOf(rev, streams, remote, control.server()), Optional.empty(), true));
            return out;
        }

        /** Waits for the senders' threads ({@code senders}) or the receivers' to end, each within the I/O timeout. */
        private void joinAll(boolean senders) throws Iperf3Exception {
            for (DataStream s : streams) {
                if (s.sender() != senders) {
                    continue;
                }
                try {
                    if (!s.join(timeoutMillis + 1000)) {
                        throw new Iperf3Exception("iperf3 stream " + s.id + " did not end within the I/O timeout");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Iperf3Exception("interrupted while ending the streams");
                }
                if (s.failure() != null) {
                    throw new Iperf3Exception("iperf3 server " + control.server() + ": stream " + s.id + " failed: "
                            + s.failure().getMessage(), s.failure());
                }
            }
        }

        private List<Iperf3RemoteStream> parseResults(JsonNode j) throws Iperf3Exception {
            try {
                return Iperf3RemoteStream.fromResults(j);
            } catch (Iperf3Exception e) {
                throw new Iperf3Exception("iperf3 server " + control.server() + " sent " + e.getMessage(), e);
            }
        }

        private String partial() {
            long sent = 0;
            long received = 0;
            for (DataStream s : streams) {
                if (s.sender()) {
                    sent += s.bytes;
                } else {
                    received += s.bytes;
                }
            }
            if (bidir) {
                return "partial: linerate had sent " + sent + " bytes and received " + received + " bytes";
            }
            return "partial: linerate had " + (options.reverse() ? "received " + received : "sent " + sent) + " bytes";
        }

        private void terminate() {
            try {
                control.send(Iperf3State.CLIENT_TERMINATE);
            } catch (Iperf3Exception | RuntimeException ignored) {
                // the server may be gone already
            }
        }

        private void closeAll() {
            DataStreams.closeAll(streams, timeoutMillis);
            if (control != null) {
                control.close();
            }
        }
    }
}
