package io.linerate.afpacket.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The native send plan: sized, prepared and bounded as the C side says. */
class SendPlanTest {
    private static final int EINVAL = 22;
    private static final int EBADF = 9;

    @BeforeAll
    static void needsTheLibrary() {
        assumeTrue(Native.LIBRARY.tryLoad() == null, () -> "no native library: " + Native.LIBRARY.tryLoad());
    }

    @Test
    void aPlanIsItsHeadThenOneMessageHeaderAndIovecPerFrame() {
        // x86-64: struct sockaddr_ll is 20 bytes and the frame count a u32 after it, 24 in all, already
        // 8-aligned for struct mmsghdr (struct msghdr 56 + msg_len 4 + padding 4 = 64); struct iovec is 16
        assertThat(Native.sendPlanSize(1)).isEqualTo(24 + 64 + 16);
        assertThat(Native.sendPlanSize(1024)).isEqualTo(24 + 1024 * (64 + 16));
        assertThat(Native.sendPlanSize(0)).isEqualTo(-EINVAL);
        assertThat(Native.sendPlanSize(1025)).isEqualTo(-EINVAL);
    }

    @Test
    void preparingChecksItsArgumentsAndSendingNeverGoesPastThePlan() {
        UnsafeBuffer frames = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4 * 60, 64));
        UnsafeBuffer plan = new UnsafeBuffer(BufferUtil.allocateDirectAligned((int) Native.sendPlanSize(4) + 8, 64));
        long p = plan.addressOffset();
        long f = frames.addressOffset();
        assertThat(Native.prepareSend(p, 1, 0x88b5, f, 60, 0)).isEqualTo(-EINVAL);
        assertThat(Native.prepareSend(p, 1, 0x88b5, f, 60, 1025)).isEqualTo(-EINVAL);
        assertThat(Native.prepareSend(p, 1, 0x88b5, f, 0, 4)).isEqualTo(-EINVAL);
        assertThat(Native.prepareSend(p + 4, 1, 0x88b5, f, 60, 4)).as("misaligned").isEqualTo(-EINVAL);
        assertThat(Native.prepareSend(p, 1, 0x88b5, f, 60, 4)).isZero();
        // the ethertype in network order sits at sockaddr_ll.sll_protocol (offset 2)
        assertThat(plan.getShort(2, java.nio.ByteOrder.BIG_ENDIAN)).isEqualTo((short) 0x88b5);
        assertThat(Native.send(-1, p, 5)).as("more frames than prepared").isEqualTo(-EINVAL);
        assertThat(Native.send(-1, p, 0)).isEqualTo(-EINVAL);
        assertThat(Native.send(-1, p, 4)).as("sendmmsg on no socket").isEqualTo(-EBADF);
    }
}
