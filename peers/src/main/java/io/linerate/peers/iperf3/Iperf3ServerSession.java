package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.peers.server.ServedStart;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One iperf3 client's test, the server's side of iperf3's control protocol: PARAM_EXCHANGE and
 * the client's parameters; the limits (SERVER_ERROR with iperf3's error code, or ACCESS_DENIED for
 * a second UDP test of one address); CREATE_STREAMS and the data streams; TEST_START and
 * TEST_RUNNING; the client's TEST_END, after which each receiving stream reads what is already
 * there and every stream is closed; EXCHANGE_RESULTS (the client's results, then the server's);
 * DISPLAY_RESULTS and the client's IPERF_DONE. Runs on the thread that read its cookie.
 */
final class Iperf3ServerSession {
    private static final Logger LOG = LoggerFactory.getLogger(Iperf3ServerSession.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long POLL_MILLIS = 20;
    /** Put among the arrivals by {@link #abort} to end the wait for streams. */
    private static final Object STOPPING = new Object();

    private final Iperf3Agent agent;
    private final Iperf3ServerConfig config;
    private final BoundedChannel control;
    private final InetSocketAddress client;
    private final String cookie;
    /** The test's number on its server, from 1. */
    private final long number;
    private final BlockingQueue<Object> arrivals = new LinkedBlockingQueue<>();
    private final AtomicInteger offered = new AtomicInteger();
    private final Set<InetSocketAddress> udpFrom = ConcurrentHashMap.newKeySet();
    private final List<DataStream> streams = new ArrayList<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile int wanted;
    private volatile boolean udpTest;
    private volatile boolean aborted;
    private boolean udpClaimed;
    private Iperf3TestParams params;
    /** The test's interval lines, from TEST_START on; null before, and once its summary is reported. */
    private Iperf3ServedLines lines;

    /** @param number the test's number on its server, from 1 */
    Iperf3ServerSession(Iperf3Agent agent, BoundedChannel control, InetSocketAddress client, String cookie, long number) {
        this.agent = agent;
        this.number = number;
        this.config = agent.config();
        this.control = control;
        this.client = client;
        this.cookie = cookie;
    }

    /**
     * @param order the connection's place in the server's accept order
     * @return whether the TCP data connection {@code ch} was taken as one of this test's streams
     */
    boolean offerTcp(BoundedChannel ch, long order) {
        if (udpTest || offered.incrementAndGet() > wanted) {
            return false;
        }
        return arrivals.offer(new TcpArrival(order, ch));
    }

    /**
     * @return whether the UDP connect message from {@code from} was taken as one of this test's streams;
     *     false for a second one from the same address and port
     */
    boolean offerUdp(InetSocketAddress from) {
        // a re-sent or duplicated connect message from a stream's port is that stream's, not another one
        if (!udpTest || !udpFrom.add(from) || offered.incrementAndGet() > wanted) {
            return false;
        }
        return arrivals.offer(from);
    }

    /**
     * Ends the test soon, from any thread: its streams stop, and its thread leaves its next or
     * current wait, tells the client SERVER_TERMINATE and releases everything.
     */
    void abort() {
        aborted = true;
        arrivals.offer(STOPPING);
        synchronized (streams) {
            streams.forEach(DataStream::stop);
        }
        control.cancel();
    }

    /** Closes the connections of a test whose thread did not end after {@link #abort}. */
    void forceClose() {
        control.close();
        synchronized (streams) {
            streams.forEach(DataStream::close);
        }
    }

    /** @return whether the test ended and released what it held */
    boolean hasEnded() {
        return ended.getCount() == 0;
    }

    void awaitEnd(long millis) throws InterruptedException {
        ended.await(Math.max(1, millis), TimeUnit.MILLISECONDS);
    }

    void run() {
        String who = "iperf3 test " + number + " from " + client;
        try {
            exchangeParameters();
            Optional<Iperf3TestParams.Refusal> no = params.refusal(config.limits());
            if (no.isPresent()) {
                agent.refusedOne();
                LOG.warn("refused {}: {}; sent SERVER_ERROR", who, no.get().reason());
                serverError(no.get().iperfErrno());
                return;
            }
            if (params.udp()) {
                udpClaimed = agent.claimUdp(client.getAddress(), this);
                if (!udpClaimed) {
                    agent.refusedOne();
                    LOG.warn("refused {}: a UDP test of {} is running, and iperf3's UDP connect message carries no "
                            + "cookie to tell two apart; sent ACCESS_DENIED", who, client.getAddress().getHostAddress());
                    send(Iperf3State.ACCESS_DENIED);
                    return;
                }
            }
            createStreams();
            send(Iperf3State.TEST_START);
            // iperf3's server starts its omit timer at TEST_START and resets its counters when it fires
            long t0 = System.nanoTime();
            long omitEnd = t0 + params.omitSeconds() * 1_000_000_000L;
            agent.listener().onStart(new ServedStart(number, client, Iperf3ServedLines.describe(params)));
            lines = new Iperf3ServedLines(agent.listener(), number, params, streams, t0, omitEnd);
            String threads = "linerate-iperf3-test-" + number + "-stream-";
            synchronized (streams) {
                for (DataStream s : streams) {
                    if (params.omitSeconds() > 0) {
                        s.omitted.until(omitEnd);
                    }
                }
                DataStreams.receivers(streams, threads, config.ioTimeout().toNanos());
                send(Iperf3State.TEST_RUNNING);
                DataStreams.senders(streams, threads);
            }
            if (!runUntilTestEnd(who)) {
                return;
            }
            endStreams();
            lines.finish(System.nanoTime());
            send(Iperf3State.EXCHANGE_RESULTS);
            JsonNode theirs = readJson("the client's results");
            Iperf3ServerResults mine = Iperf3ServerResults.of(params, streams, theirs);
            ObjectNode out = mine.toJson();
            if (params.serverOutput()) {
                out.set("server_output_json", mine.report());
            }
            control.writeFully(Iperf3Wire.lengthPrefixed(JSON.writeValueAsBytes(out)));
            send(Iperf3State.DISPLAY_RESULTS);
            byte done = read("IPERF_DONE");
            if (done != Iperf3State.IPERF_DONE) {
                LOG.warn("{}: the client sent {} after the results; expected IPERF_DONE", who, Iperf3State.name(done));
            }
            LOG.info("{} done: {}", who, mine.summary());
            lines.summaries(mine);
            lines = null;
        } catch (Iperf3Exception | IOException | RuntimeException e) {
            cutShort(aborted ? "the server stopped" : String.valueOf(e.getMessage()));
            if (aborted) {
                terminate(who);
            } else if (e instanceof RuntimeException) {
                LOG.error("{} failed", who, e);
            } else {
                LOG.warn("{} ended: {}", who, e.getMessage());
            }
        } finally {
            release();
        }
    }

    /** Reports the summary of a test that ran its streams and ended early: its counts so far. */
    private void cutShort(String end) {
        if (lines != null) {
            lines.cutShort(end);
            lines = null;
        }
    }

    private void exchangeParameters() throws IOException, Iperf3Exception {
        control.channel().setOption(StandardSocketOptions.TCP_NODELAY, true);
        send(Iperf3State.PARAM_EXCHANGE);
        JsonNode p = readJson("the parameters");
        try {
            params = Iperf3TestParams.parse(p);
        } catch (Iperf3Exception e) {
            serverError(Iperf3TestParams.IE_RECVPARAMS);
            throw e;
        }
    }

    private void createStreams() throws IOException, Iperf3Exception {
        wanted = params.streams();
        udpTest = params.udp();
        if (!udpTest) {
            agent.awaitTcp(cookie, this);
        }
        boolean windowed = false;
        List<Object> got = new ArrayList<>(wanted);
        try {
            windowed = !udpTest && agent.windowOnListener(params.window());
            send(Iperf3State.CREATE_STREAMS);
            long deadline = System.nanoTime() + config.ioTimeout().toNanos();
            for (int i = 0; i < wanted; i++) {
                Object a = arrivals.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (a == null || aborted) {
                    TcpArrival.close(a);
                    throw new Iperf3Exception((a == null ? "only " + i + " of " + wanted + " " + (udpTest ? "UDP" : "TCP")
                            + " streams arrived within the I/O timeout of " + config.ioTimeout().toMillis() + " ms"
                            : "the server is stopping"));
                }
                got.add(a);
                if (udpTest) {
                    // iperf3's client waits for the reply to a stream's connect message before it opens the next
                    addStream(ServerStreams.open(params, config, agent.address().getPort(), i, got.set(i, null)));
                }
            }
            if (!udpTest) {
                // TCP streams take their roles by the order they were accepted in, once all are here
                TcpArrival.sortInAcceptOrder(got);
                for (int i = 0; i < wanted; i++) {
                    addStream(ServerStreams.open(params, config, agent.address().getPort(), i,
                            ((TcpArrival) got.set(i, null)).channel()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Iperf3Exception("interrupted while waiting for the streams");
        } finally {
            agent.stopAwaitingTcp(cookie);
            if (windowed) {
                agent.windowDone();
            }
            got.forEach(TcpArrival::close);
            TcpArrival.closeAll(arrivals);
        }
    }

    private void addStream(DataStream s) {
        synchronized (streams) {
            streams.add(s);
        }
    }

    /**
     * Serves the running test until the client's TEST_END.
     *
     * @return false when the client ended the test with CLIENT_TERMINATE
     */
    private boolean runUntilTestEnd(String who) throws IOException, Iperf3Exception {
        long limit = params.duration().isZero()
                ? config.limits().maxDuration().toNanos()
                : params.duration().plus(config.ioTimeout()).toNanos();
        long deadline = System.nanoTime() + limit;
        while (true) {
            lines.tick(System.nanoTime());
            for (DataStream s : streams) {
                if (s.failure() != null) {
                    throw new Iperf3Exception("stream " + s.id + " failed: " + s.failure().getMessage(), s.failure());
                }
            }
            if (control.waitReadable(POLL_MILLIS)) {
                byte st = read("TEST_END");
                switch (st) {
                    case Iperf3State.TEST_END:
                        return true;
                    case Iperf3State.CLIENT_TERMINATE:
                        LOG.info("{} ended: the client terminated it (CLIENT_TERMINATE)", who);
                        cutShort("the client terminated it");
                        return false;
                    default:
                        throw new Iperf3Exception("the client sent " + Iperf3State.name(st) + " during the test; expected TEST_END");
                }
            }
            if (System.nanoTime() - deadline > 0) {
                agent.refusedOne();
                throw new Iperf3Exception(params.duration().isZero()
                        ? "the test ran past the server's duration limit of " + config.limits().maxDuration().toMillis()
                                + " ms (--max-duration); closed"
                        : "no TEST_END within the I/O timeout after the test's " + params.duration().toSeconds() + " s; closed");
            }
        }
    }

    /** Stops the senders, lets the receivers read what is already there, waits for all, and closes them. */
    private void endStreams() throws Iperf3Exception {
        for (DataStream s : streams) {
            s.ending();
            s.stop();
        }
        long wait = config.ioTimeout().toMillis() + 1000;
        try {
            for (DataStream s : streams) {
                if (!s.join(wait)) {
                    throw new Iperf3Exception("stream " + s.id + " did not end within the I/O timeout");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Iperf3Exception("interrupted while ending the streams");
        }
        streams.forEach(DataStream::close);
    }

    /** Tells the client the server is stopping, as iperf3's server does on SIGINT or SIGTERM. */
    private void terminate(String who) {
        boolean told = control.writeNow(ByteBuffer.wrap(new byte[] {Iperf3State.SERVER_TERMINATE}));
        LOG.info("{} ended: the server is stopping{}", who, told ? "; sent SERVER_TERMINATE" : "");
    }

    private void send(byte state) throws IOException {
        if (aborted) {
            throw new IOException("the server is stopping");
        }
        control.writeFully(ByteBuffer.wrap(new byte[] {state}));
    }

    private byte read(String step) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        control.readFully(one);
        return one.get(0);
    }

    private void serverError(int iperfErrno) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(9);
        b.put(Iperf3State.SERVER_ERROR).putInt(iperfErrno).putInt(0).flip();
        control.writeFully(b);
    }

    private JsonNode readJson(String what) throws IOException, Iperf3Exception {
        ByteBuffer len = ByteBuffer.allocate(Iperf3Wire.LENGTH_PREFIX_BYTES);
        control.readFully(len);
        try {
            // the length is checked before its body is allocated
            ByteBuffer body = ByteBuffer.allocate(Iperf3Wire.jsonLength(len.flip()));
            control.readFully(body);
            return Iperf3Wire.jsonObject(body.array());
        } catch (Iperf3Exception e) {
            throw new Iperf3Exception("the client sent " + what + " that the server refuses: " + e.getMessage(), e);
        }
    }

    private void release() {
        agent.stopAwaitingTcp(cookie);
        if (udpClaimed) {
            agent.releaseUdp(client.getAddress(), this);
        }
        synchronized (streams) {
            DataStreams.closeAll(streams, config.ioTimeout().toMillis());
        }
        TcpArrival.closeAll(arrivals);
        control.close();
        ended.countDown();
    }
}
