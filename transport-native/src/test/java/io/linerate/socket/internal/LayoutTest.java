package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LayoutTest {

    @Test
    void javaOffsetsAndConstantsAgreeWithTheKernelHeaders() {
        assertThat(Layout.fromNative()).hasSameSizeAs(Layout.FIELDS);
        assertThat(Layout.mismatches()).isEmpty();
    }

    @Test
    void tcpInfoFieldsSitWhereLinuxTcpHPutsThem() {
        // linux/tcp.h: 8 one-byte fields, then 24 u32 from tcpi_rto at 8 to tcpi_total_retrans at 100,
        // then tcpi_pacing_rate, the first u64, at 104
        assertThat(Layout.fromNative().get(Layout.FIELDS.indexOf(
                new io.linerate.jni.LayoutCheck.Field("offsetof(tcp_info, tcpi_total_retrans)", Layout.TCPI_TOTAL_RETRANS))))
                .isEqualTo(8 + 23 * 4);
    }
}
