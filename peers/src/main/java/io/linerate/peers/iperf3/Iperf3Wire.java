package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;

/**
 * The fixed-size pieces of iperf3's wire protocol, as pure functions over buffers:
 * <ul>
 *   <li>the cookie: 36 characters from {@code a-z2-7} and a NUL (37 bytes), sent first on the
 *       control connection and on every TCP data connection;</li>
 *   <li>the 4-byte big-endian length in front of every JSON object (parameters, results);</li>
 *   <li>UDP's connect message ({@code 0x36373839}, "6789", written by the client in its host's
 *       byte order) and the server's reply ({@code 0x39383736}, or {@code 987654321} from older
 *       servers, in the server's host order, so both orders are accepted).</li>
 * </ul>
 */
final class Iperf3Wire {
    /** Cookie bytes on the wire: 36 characters and a NUL. */
    public static final int COOKIE_BYTES = 37;
    /** Bytes of a JSON object's length prefix. */
    public static final int LENGTH_PREFIX_BYTES = 4;
    /** Largest JSON object accepted from a server, bytes (1 MiB): results of a few hundred streams fit. */
    public static final int MAX_JSON_BYTES = 1 << 20;
    /** The client's UDP connect message. */
    public static final int UDP_CONNECT_MSG = 0x36373839;
    /** The server's UDP connect reply. */
    public static final int UDP_CONNECT_REPLY = 0x39383736;
    /** The reply older servers send. */
    public static final int LEGACY_UDP_CONNECT_REPLY = 987654321;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] COOKIE_CHARS = "abcdefghijklmnopqrstuvwxyz234567".getBytes(StandardCharsets.US_ASCII);

    private Iperf3Wire() {}

    /** @return a fresh random cookie, {@link #COOKIE_BYTES} long, NUL-terminated */
    public static byte[] newCookie() {
        return cookie(new SecureRandom());
    }

    /**
     * @param random source of the 36 characters
     * @return a cookie, {@link #COOKIE_BYTES} long, NUL-terminated
     */
    public static byte[] cookie(RandomGenerator random) {
        byte[] c = new byte[COOKIE_BYTES];
        for (int i = 0; i < COOKIE_BYTES - 1; i++) {
            c[i] = COOKIE_CHARS[random.nextInt(COOKIE_CHARS.length)];
        }
        return c;
    }

    /**
     * @param json the JSON text's UTF-8 bytes
     * @return a buffer holding the 4-byte big-endian length and the bytes, ready to write
     */
    public static ByteBuffer lengthPrefixed(byte[] json) {
        ByteBuffer b = ByteBuffer.allocate(LENGTH_PREFIX_BYTES + json.length);
        b.putInt(json.length).put(json).flip();
        return b;
    }

    /**
     * Reads a JSON object's length before anything is allocated for it, so a length of 2^31 costs
     * nothing but this error.
     *
     * @param prefix the 4 received length bytes (big-endian, read unsigned), from its position
     * @return the length they give, bytes
     * @throws Iperf3Exception when it is outside 0..{@value #MAX_JSON_BYTES}
     */
    public static int jsonLength(ByteBuffer prefix) throws Iperf3Exception {
        long n = Integer.toUnsignedLong(prefix.getInt(prefix.position()));
        if (n > MAX_JSON_BYTES) {
            throw new Iperf3Exception("a JSON object of " + n + " bytes was announced; allowed: 0.." + MAX_JSON_BYTES);
        }
        return (int) n;
    }

    /**
     * @param body the bytes a length prefix announced
     * @return them as a JSON object
     * @throws Iperf3Exception when they are not JSON, or JSON but not an object
     */
    static JsonNode jsonObject(byte[] body) throws Iperf3Exception {
        JsonNode n;
        try {
            n = JSON.readTree(body);
        } catch (IOException e) {
            throw new Iperf3Exception("not JSON: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new Iperf3Exception("not a JSON object");
        }
        return n;
    }

    /** @return the UDP connect message in this host's byte order, as iperf3's client writes it */
    public static ByteBuffer udpConnectMessage() {
        ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
        b.putInt(0, UDP_CONNECT_MSG);
        return b;
    }

    /**
     * @param reply 4 received bytes, from position 0
     * @return whether they are a connect reply, current or legacy, in either byte order
     */
    public static boolean isUdpConnectReply(ByteBuffer reply) {
        int be = reply.order(ByteOrder.BIG_ENDIAN).getInt(0);
        int le = Integer.reverseBytes(be);
        return be == UDP_CONNECT_REPLY || le == UDP_CONNECT_REPLY
                || be == LEGACY_UDP_CONNECT_REPLY || le == LEGACY_UDP_CONNECT_REPLY;
    }

    /**
     * Stream {@code i}'s share of a test's total (bytes, blocks or bit/s) over {@code n} streams,
     * as even as whole units allow: the first {@code total % n} streams take one more.
     */
    static long share(long total, int n, int i) {
        return total / n + (i < total % n ? 1 : 0);
    }
}
