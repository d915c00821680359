package io.linerate.peers.agent.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class HmacTest {
    private static final byte[] SECRET = "linerate-test-secret".getBytes(StandardCharsets.US_ASCII);
    /** Nonce bytes 0x00, 0x01, ..., 0x1f. */
    private static final byte[] NONCE = new byte[32];

    static {
        for (int i = 0; i < NONCE.length; i++) {
            NONCE[i] = (byte) i;
        }
    }

    /**
     * Computed once outside linerate: the nonce written as 32 bytes 0x00..0x1f to nonce.bin, then
     * {@code openssl dgst -sha256 -hmac 'linerate-test-secret' nonce.bin} (OpenSSL 3).
     */
    private static final String OPENSSL_HMAC = "2ff435d773896fe1359f98d7a82e36c38d8577f85b5561cfbf56e71fb1aabc77";

    @Test
    void theAnswerIsHmacSha256OfTheNonceUnderTheSecret() {
        assertThat(HexFormat.of().formatHex(Hmac.answer(SECRET, NONCE))).isEqualTo(OPENSSL_HMAC);
    }

    @Test
    void verifyTakesOnlyTheExactAnswer() {
        byte[] good = HexFormat.of().parseHex(OPENSSL_HMAC);
        byte[] flipped = good.clone();
        flipped[31] ^= 1;
        assertThat(Hmac.verify(SECRET, NONCE, good)).isTrue();
        assertThat(Hmac.verify(SECRET, NONCE, flipped)).isFalse();
        assertThat(Hmac.verify(SECRET, NONCE, new byte[0])).isFalse();
        assertThat(Hmac.verify(SECRET, NONCE, null)).isFalse();
        assertThat(Hmac.verify("another".getBytes(StandardCharsets.US_ASCII), NONCE, good)).isFalse();
    }

    @Test
    void noncesAreThirtyTwoFreshBytes() {
        byte[] a = Hmac.nonce();
        byte[] b = Hmac.nonce();
        assertThat(a).hasSize(32);
        // two equal 256-bit draws from SecureRandom: probability 2^-256
        assertThat(a).isNotEqualTo(b);
    }
}
