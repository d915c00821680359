package io.linerate.nio.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * linerate as a client of an unmodified iperf3 server ({@code iperf3 -s}), speaking iperf3's
 * control protocol: the cookie, then one state byte per step (PARAM_EXCHANGE, CREATE_STREAMS,
 * TEST_START, TEST_RUNNING, TEST_END, EXCHANGE_RESULTS, DISPLAY_RESULTS, IPERF_DONE), the
 * parameters and both ends' results as length-prefixed JSON, the cookie again first on every TCP
 * data connection, and UDP's connect message and reply. UDP datagrams carry iperf3's header
 * ({@link Iperf3DatagramHeader}); receiving ({@link Iperf3Options#reverse()}), linerate counts loss,
 * reordering and RFC 3550 jitter from it.
 *
 * <p>Every connect, read and write is bounded by the spec's I/O timeout. A busy server
 * (ACCESS_DENIED), a server error, and a server that stops or goes away mid-test each end the run
 * with an {@link Iperf3Exception} naming the server and the step, with every socket and thread of
 * the run closed. The spec's payload is iperf3's {@code -l}, its rate the whole test's (iperf3's
 * {@code -b} is per stream: linerate sends rate / streams), its bound a duration (whole seconds are
 * sent to the server, which only uses them for its own time-out; linerate ends the test), bytes
 * ({@code -n}) or messages ({@code -k}). Its warm-up, interval and full log are not used.
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
        return new Session(to, spec, options).run();
    }

    /** One test's state; closes everything it opened. */
    private static final class Session {
        private final InetSocketAddress to;
        private final TransferSpec spec;
        private final Iperf3Options options;
        private final boolean udp;
        private final byte[] cookie = Iperf3Wire.newCookie();
        private final List<DataStream> streams = new ArrayList<>();
        private final long timeoutMillis;
        private ControlConnection control;

        Session(InetSocketAddress to, TransferSpec spec, Iperf3Options options) {
            this.to = to;
            this.spec = spec;
            this.options = options;
            this.udp = spec.protocol() == Protocol.UDP;
            this.timeoutMillis = Math.max(1, spec.ioTimeout().toMillis());
        }

        Iperf3Result run() throws Iperf3Exception {
            boolean started = false;
            try {
                control = ControlConnection.open(to, spec.ioTimeout(), cookie);
                control.expect(Iperf3State.PARAM_EXCHANGE, "the cookie");
                control.sendJson(parameters(), "parameters");
                control.expect(Iperf3State.CREATE_STREAMS, "the parameters");
                createStreams();
                control.expect(Iperf3State.TEST_START, "creating the streams");
                control.expect(Iperf3State.TEST_RUNNING, "TEST_START");
                started = true;
                for (DataStream s : streams) {
                    s.start("linerate-iperf3-stream-" + s.id);
                }
                runUntilBound();
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

        private ObjectNode parameters() {
            ObjectNode p = ControlConnection.object();
            p.put(udp ? "udp" : "tcp", true);
            p.put("omit", 0);
            Bound b = spec.bound();
            p.put("time", b.kind() == Bound.Kind.DURATION ? (b.amount() + 999_999_999L) / 1_000_000_000L : 0);
            p.put("num", b.kind() == Bound.Kind.BYTES ? b.amount() : 0);
            p.put("blockcount", b.kind() == Bound.Kind.MESSAGES ? b.amount() : 0);
            if (spec.noDelay()) {
                p.put("nodelay", true);
            }
            p.put("parallel", options.parallel());
            if (options.reverse()) {
                p.put("reverse", true);
            }
            if (spec.sendBufferBytes() > 0) {
                p.put("window", spec.sendBufferBytes());
            }
            p.put("len", spec.payloadBytes());
            if (spec.rateBitsPerSecond() > 0) {
                p.put("bandwidth", Math.max(1, spec.rateBitsPerSecond() / options.parallel()));
            }
            if (spec.trafficClass() != 0) {
                p.put("TOS", spec.trafficClass());
            }
            if (options.udpCounters64Bit()) {
                p.put("udp_counters_64bit", 1);
            }
            p.put("client_version", "linerate");
            return p;
        }

        private void createStreams() throws Iperf3Exception {
            int n = options.parallel();
            Bound b = spec.bound();
            for (int i = 0; i < n; i++) {
                int id = i == 0 ? 1 : i + 2; // iperf3 numbers its streams 1, 3, 4, ...
                long bytes = b.kind() == Bound.Kind.BYTES && !options.reverse() ? share(b.amount(), n, i) : 0;
                long msgs = b.kind() == Bound.Kind.MESSAGES && !options.reverse() ? share(b.amount(), n, i) : 0;
                long rate = spec.rateBitsPerSecond() == 0 ? 0 : Math.max(1, share(spec.rateBitsPerSecond(), n, i));
                boolean send = !options.reverse();
                try {
                    streams.add(udp
                            ? DataStream.udp(id, to, send, options.udpCounters64Bit(), spec.payloadBytes(), bytes, msgs, rate,
                                    spec.ioTimeout(), spec.sendBufferBytes(), spec.receiveBufferBytes(), spec.trafficClass())
                            : DataStream.tcp(id, to, cookie, send, spec.payloadBytes(), bytes, msgs, rate, spec.ioTimeout(),
                                    spec.sendBufferBytes(), spec.receiveBufferBytes(), spec.noDelay(), spec.trafficClass()));
                } catch (IOException e) {
                    throw new Iperf3Exception("iperf3 server " + control.server() + ": opening " + spec.protocol().label()
                            + " stream " + (i + 1) + " of " + n + " failed: " + e.getMessage(), e);
                }
            }
        }

        private static long share(long total, int n, int i) {
            return total / n + (i < total % n ? 1 : 0);
        }

        private void runUntilBound() throws Iperf3Exception {
            Bound b = spec.bound();
            long start = System.nanoTime();
            long deadline = b.kind() == Bound.Kind.DURATION ? start + b.amount() : Long.MAX_VALUE;
            while (true) {
                boolean allDone = true;
                long bytes = 0;
                long msgs = 0;
                for (DataStream s : streams) {
                    if (s.failure() != null) {
                        throw new Iperf3Exception("iperf3 server " + control.server() + ": stream " + s.id + " failed: "
                                + s.failure().getMessage(), s.failure());
                    }
                    allDone &= s.finished();
                    bytes += s.bytes;
                    msgs += s.messages;
                }
                if (!options.reverse() && allDone) {
                    return; // every sender spent its budget
                }
                if (options.reverse() && ((b.kind() == Bound.Kind.BYTES && bytes >= b.amount())
                        || (b.kind() == Bound.Kind.MESSAGES && msgs >= b.amount()))) {
                    return;
                }
                long now = System.nanoTime();
                if (now >= deadline) {
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

        private Iperf3Result finish() throws Iperf3Exception {
            for (DataStream s : streams) {
                s.ending();
                if (!options.reverse()) {
                    s.stop();
                }
            }
            if (!options.reverse()) {
                joinAll();
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
            if (options.reverse()) {
                // the server closed its streams before EXCHANGE_RESULTS: what it sent is here or lost
                for (DataStream s : streams) {
                    s.stop();
                }
                joinAll();
            }
            control.sendJson(results(), "client results");
            List<Iperf3RemoteStream> remote = parseResults(control.readJson("server results"));
            control.expect(Iperf3State.DISPLAY_RESULTS, "the results");
            control.send(Iperf3State.IPERF_DONE);
            Optional<Boolean> readAll = Optional.empty();
            if (!udp && !options.reverse()) {
                boolean all = true;
                boolean known = true;
                for (DataStream s : streams) {
                    s.checkServerReadAll(timeoutMillis);
                    if (s.serverReadAll == null) {
                        known = false;
                    } else {
                        all &= s.serverReadAll;
                    }
                }
                readAll = !all ? Optional.of(false) : known ? Optional.of(true) : Optional.empty();
            }
            return new Iperf3Result(spec, options, control.server(), local(), remote, readAll);
        }

        private void joinAll() throws Iperf3Exception {
            for (DataStream s : streams) {
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

        private Iperf3Result.Local local() {
            long bytes = 0;
            long msgs = 0;
            long distinct = 0;
            long reordered = 0;
            long dups = 0;
            long nanos = 0;
            double jitterSum = 0;
            int jitterStreams = 0;
            for (DataStream s : streams) {
                bytes += s.bytes;
                msgs += s.messages;
                distinct += s.tracker.distinct();
                reordered += s.tracker.reordered();
                dups += s.tracker.duplicates();
                nanos = Math.max(nanos, s.activeNanos());
                if (s.jitter.samples() > 0) {
                    jitterSum += s.jitter.nanos();
                    jitterStreams++;
                }
            }
            boolean reverseUdp = udp && options.reverse();
            return new Iperf3Result.Local(bytes, msgs, reverseUdp ? distinct : 0, reverseUdp ? reordered : 0,
                    reverseUdp ? dups : 0, jitterStreams > 0 ? OptionalDouble.of(jitterSum / jitterStreams) : OptionalDouble.empty(),
                    nanos);
        }

        private ObjectNode results() {
            ObjectNode r = ControlConnection.object();
            r.put("cpu_util_total", 0.0);
            r.put("cpu_util_user", 0.0);
            r.put("cpu_util_system", 0.0);
            r.put("sender_has_retransmits", options.reverse() ? -1 : 0);
            ArrayNode a = r.putArray("streams");
            for (DataStream s : streams) {
                ObjectNode o = a.addObject();
                o.put("id", s.id);
                o.put("bytes", s.bytes);
                o.put("retransmits", -1);
                boolean rx = udp && options.reverse();
                o.put("jitter", rx ? s.jitter.nanos() / 1e9 : 0.0);
                o.put("errors", rx ? s.tracker.missingSoFar() : 0);
                o.put("packets", udp ? (rx ? s.tracker.highest() + 1 : s.messages) : 0);
                o.put("start_time", 0.0);
                o.put("end_time", s.activeNanos() / 1e9);
            }
            return r;
        }

        private List<Iperf3RemoteStream> parseResults(JsonNode j) throws Iperf3Exception {
            try {
                return Iperf3RemoteStream.fromResults(j);
            } catch (Iperf3Exception e) {
                throw new Iperf3Exception("iperf3 server " + control.server() + " sent " + e.getMessage(), e);
            }
        }

        private String partial() {
            long bytes = 0;
            for (DataStream s : streams) {
                bytes += s.bytes;
            }
            return "partial: linerate had " + (options.reverse() ? "received " : "sent ") + bytes + " bytes";
        }

        private void terminate() {
            try {
                control.send(Iperf3State.CLIENT_TERMINATE);
            } catch (Iperf3Exception | RuntimeException ignored) {
                // the server may be gone already
            }
        }

        private void closeAll() {
            for (DataStream s : streams) {
                s.close();
            }
            for (DataStream s : streams) {
                try {
                    s.join(timeoutMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException ignored) {
                    // never started
                }
            }
            if (control != null) {
                control.close();
            }
        }
    }
}
