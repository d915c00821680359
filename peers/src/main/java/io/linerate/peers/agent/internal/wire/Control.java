package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * The control connection: JSON objects (Jackson), each preceded by its length as a 4-byte
 * big-endian unsigned integer, at most {@value #MAX_MESSAGE_BYTES} bytes. Every read is bounded by
 * the socket's read timeout.
 */
public final class Control implements Closeable {
    /** Largest control message, bytes. */
    /** The request's and ready's field, and the message, by which the receiving side lets the sending side send. */
    public static final String GO = "go";
    /**
     * The message by which a client, interrupted, asks the agent to close its ends' windows now and
     * send its {@code result} (its ends' counts, marked interrupted). An agent from before it passes
     * over it; the client then reports its own counts alone.
     */
    public static final String STOP = "stop";
    /** The agent's TCP port unless configured otherwise. */
    public static final int DEFAULT_PORT = 7001;
    /** How long the agent waits for each control message of a session's handshake, and a client for its answers. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    public static final int MAX_MESSAGE_BYTES = 64 * 1024;
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private final Socket socket;
    private final BufferedInputStream buffered;
    private final DataInputStream in;
    private final DataOutputStream out;

    public Control(Socket socket, int timeoutMillis) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(timeoutMillis);
        socket.setTcpNoDelay(true);
        this.buffered = new BufferedInputStream(socket.getInputStream());
        this.in = new DataInputStream(buffered);
        this.out = new DataOutputStream(socket.getOutputStream());
    }

    public Socket socket() {
        return socket;
    }

    public void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    public static ObjectNode message(String type) {
        return MAPPER.createObjectNode().put("type", type);
    }

    public synchronized void send(ObjectNode message) throws IOException {
        byte[] b = MAPPER.writeValueAsBytes(message);
        out.writeInt(b.length);
        out.write(b);
        out.flush();
    }

    /**
     * @return the next message, an object with a text {@code type}
     * @throws IOException when the peer closed the connection, a read timed out, or the message is
     *     oversized or not such an object; the message says which
     */
    public JsonNode receive() throws IOException {
        try {
            return read(in);
        } catch (SocketTimeoutException e) {
            throw new SocketTimeoutException("no control message within " + socket.getSoTimeout() + " ms");
        }
    }

    /**
     * Reads one message: its 4-byte big-endian length, checked before anything is allocated for
     * it, then that many bytes of JSON.
     *
     * @param in the control connection's bytes
     * @return the message, an object with a text {@code type}
     * @throws IOException when the stream ends, or the message is oversized or not such an object;
     *     the message says which
     */
    public static JsonNode read(DataInputStream in) throws IOException {
        int n;
        try {
            n = in.readInt();
        } catch (EOFException e) {
            throw new EOFException("the peer closed the control connection");
        }
        if (n < 0 || n > MAX_MESSAGE_BYTES) {
            throw new IOException(String.format(Locale.ROOT,
                    "control message of %d bytes announced; allowed: 0..%d", Integer.toUnsignedLong(n),
                    MAX_MESSAGE_BYTES));
        }
        byte[] b = new byte[n];
        try {
            in.readFully(b);
        } catch (EOFException e) {
            throw new EOFException("the peer closed the control connection within a message of " + n + " bytes");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(b);
        } catch (JacksonException e) {
            throw new IOException("control message is not JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject() || !node.path("type").isTextual()) {
            throw new IOException("control message is not a JSON object with a \"type\"");
        }
        return node;
    }

    /** @return the next message of type {@code type}; a {@code refused} or {@code error} message fails with its reason */
    public JsonNode expect(String type) throws IOException {
        JsonNode m = receive();
        String t = m.get("type").asText();
        if (t.equals(type)) {
            return m;
        }
        if (t.equals("refused") || t.equals("error")) {
            throw new IOException(m.path("reason").asText("no reason given"));
        }
        throw new IOException("expected a \"" + type + "\" control message, got \"" + t + "\"");
    }

    /** @return a message that has started to arrive, else null; never blocks for long */
    public JsonNode poll() throws IOException {
        return in.available() >= 4 ? receive() : null;
    }

    /**
     * Whether the peer has closed or reset the connection, for a side that expects no message now:
     * waits at most 1 ms, and leaves any byte that did arrive to be read as part of a message.
     *
     * @return true when the connection reached its end or failed
     */
    public synchronized boolean peerGone() {
        try {
            if (in.available() > 0) {
                return false;
            }
            int old = socket.getSoTimeout();
            socket.setSoTimeout(1);
            try {
                buffered.mark(1);
                if (buffered.read() < 0) {
                    return true;
                }
                buffered.reset();
                return false;
            } catch (SocketTimeoutException e) {
                return false;
            } finally {
                socket.setSoTimeout(old);
            }
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
