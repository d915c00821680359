package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class DatagramHeaderTest {

    @Test
    void aHeaderAtAnIndexOfALargerBufferIsBigEndianWhateverTheBuffersOrder() {
        // a little-endian direct buffer, as a memory-mapped ring is read natively on x86-64
        UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(64).order(ByteOrder.LITTLE_ENDIAN));
        DatagramHeader.write(b, 14, 3, 0x0102030405060708L, 0x1112131415161718L, DatagramHeader.WINDOW);

        // the layout written out by hand from the class comment: magic "LNRT", stream id 3,
        // sequence, send time, phase 1, reserved 0, every field big-endian, from byte 14 on
        byte[] expected = {
            'L', 'N', 'R', 'T', 0, 0, 0, 3,
            1, 2, 3, 4, 5, 6, 7, 8,
            0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
            0, 0, 0, 1, 0, 0, 0, 0};
        byte[] got = new byte[32];
        b.getBytes(14, got);
        assertThat(got).containsExactly(expected);
        assertThat(b.getByte(13)).isZero();
        assertThat(b.getByte(46)).isZero();

        assertThat(DatagramHeader.matches(b, 14, 32, 3)).isTrue();
        assertThat(DatagramHeader.phase(b, 14)).isEqualTo(DatagramHeader.WINDOW);
        assertThat(DatagramHeader.sequence(b, 14)).isEqualTo(0x0102030405060708L);
        assertThat(DatagramHeader.sendTime(b, 14)).isEqualTo(0x1112131415161718L);
        // the same bytes read through the ByteBuffer form agree
        ByteBuffer copy = ByteBuffer.wrap(got);
        assertThat(DatagramHeader.matches(copy, 32, 3)).isTrue();
        assertThat(DatagramHeader.sequence(copy)).isEqualTo(0x0102030405060708L);
    }

    @Test
    void aShortPayloadAnotherStreamOrAnUnknownPhaseDoesNotMatch() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        DatagramHeader.write(b, 0, 7, 0, 0, DatagramHeader.WARMUP);
        assertThat(DatagramHeader.matches(b, 0, 31, 7)).isFalse();
        assertThat(DatagramHeader.matches(b, 0, 32, 8)).isFalse();
        b.putInt(24, DatagramHeader.PHASES, ByteOrder.BIG_ENDIAN);
        assertThat(DatagramHeader.matches(b, 0, 32, 7)).isFalse();
        b.putInt(24, -1, ByteOrder.BIG_ENDIAN);
        assertThat(DatagramHeader.matches(b, 0, 32, 7)).isFalse();
        b.putInt(24, DatagramHeader.AFTER, ByteOrder.BIG_ENDIAN);
        assertThat(DatagramHeader.matches(b, 0, 32, 7)).isTrue();
    }
}
