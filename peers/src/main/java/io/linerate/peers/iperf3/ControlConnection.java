package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.peers.internal.KeepAlive;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * iperf3's control connection from the client's side: the cookie, state bytes and length-prefixed
 * JSON objects over a {@link BoundedChannel}, so every step is bounded by the I/O timeout. Errors
 * name the server and the step.
 */
final class ControlConnection implements Closeable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final BoundedChannel channel;
    private final String server;
    private final ByteBuffer one = ByteBuffer.allocate(1);

    private ControlConnection(BoundedChannel channel, String server) {
        this.channel = channel;
        this.server = server;
    }

    static ControlConnection open(InetSocketAddress to, Duration timeout, byte[] cookie) throws Iperf3Exception {
        String name = to.getHostString() + ":" + to.getPort();
        BoundedChannel ch;
        try {
            ch = BoundedChannel.connect(to, timeout);
        } catch (IOException e) {
            throw new Iperf3Exception("cannot connect to the iperf3 server at " + name + ": " + e.getMessage(), e);
        }
        ControlConnection c = new ControlConnection(ch, name);
        try {
            ch.channel().setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            // the control connection is silent during the test: keepalive fails it on a black-holed path
            KeepAlive.forSilence(ch.channel(), timeout);
            ch.writeFully(ByteBuffer.wrap(cookie));
        } catch (IOException e) {
            // a busy server may close before reading the cookie: its ACCESS_DENIED may still be there to read
            return c;
        }
        return c;
    }

    String server() {
        return server;
    }

    BoundedChannel channel() {
        return channel;
    }

    /** Sends one state byte. */
    void send(byte state) throws Iperf3Exception {
        try {
            channel.writeFully(ByteBuffer.wrap(new byte[] {state}));
        } catch (IOException e) {
            throw new Iperf3Exception("iperf3 server " + server + ": sending " + Iperf3State.name(state) + " failed: "
                    + e.getMessage(), e);
        }
    }

    /** @return the next state byte, or throws naming {@code step} */
    byte read(String step) throws Iperf3Exception {
        one.clear();
        try {
            channel.readFully(one);
        } catch (IOException e) {
            throw new Iperf3Exception("iperf3 server " + server + " did not answer " + step + ": " + e.getMessage(), e);
        }
        return one.get(0);
    }

    /**
     * Reads the next state byte and requires it to be {@code expected}; ACCESS_DENIED, SERVER_ERROR
     * and SERVER_TERMINATE become their own errors.
     */
    void expect(byte expected, String step) throws Iperf3Exception {
        byte s = read(step);
        if (s != expected) {
            throw unexpected(s, step, Iperf3State.name(expected));
        }
    }

    /** @return the error for state {@code s} met where {@code wanted} was due */
    Iperf3Exception unexpected(byte s, String step, String wanted) {
        return switch (s) {
            case Iperf3State.ACCESS_DENIED -> new Iperf3Exception("iperf3 server " + server
                    + " is busy with another test (ACCESS_DENIED); iperf3 -s serves one test at a time: try again later");
            case Iperf3State.SERVER_ERROR -> serverError(step);
            case Iperf3State.SERVER_TERMINATE -> new Iperf3Exception("iperf3 server " + server + " terminated during " + step
                    + " (SERVER_TERMINATE)");
            default -> new Iperf3Exception("iperf3 server " + server + " sent " + Iperf3State.name(s) + " during " + step
                    + "; expected " + wanted);
        };
    }

    private Iperf3Exception serverError(String step) {
        ByteBuffer codes = ByteBuffer.allocate(8);
        try {
            channel.readFully(codes);
            return new Iperf3Exception("iperf3 server " + server + " failed during " + step + " (SERVER_ERROR, iperf3 error "
                    + codes.getInt(0) + ", errno " + codes.getInt(4) + ")");
        } catch (IOException e) {
            return new Iperf3Exception("iperf3 server " + server + " failed during " + step + " (SERVER_ERROR)");
        }
    }

    /** Sends {@code o} behind its 4-byte big-endian length. */
    void sendJson(ObjectNode o, String what) throws Iperf3Exception {
        try {
            channel.writeFully(Iperf3Wire.lengthPrefixed(JSON.writeValueAsBytes(o)));
        } catch (IOException e) {
            throw new Iperf3Exception("iperf3 server " + server + ": sending the " + what + " failed: " + e.getMessage(), e);
        }
    }

    /** @return the next length-prefixed JSON object; every error names the server and {@code what} */
    JsonNode readJson(String what) throws Iperf3Exception {
        ByteBuffer len = ByteBuffer.allocate(Iperf3Wire.LENGTH_PREFIX_BYTES);
        try {
            channel.readFully(len);
            ByteBuffer body = ByteBuffer.allocate(Iperf3Wire.jsonLength(len.flip()));
            channel.readFully(body);
            return Iperf3Wire.jsonObject(body.array());
        } catch (Iperf3Exception | IOException e) {
            throw new Iperf3Exception("iperf3 server " + server + ": reading the " + what + " failed: " + e.getMessage(), e);
        }
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    @Override
    public void close() {
        channel.close();
    }
}
