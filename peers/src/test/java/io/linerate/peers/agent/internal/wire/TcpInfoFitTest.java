package io.linerate.peers.agent.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.TcpStats;
import org.junit.jupiter.api.Test;

class TcpInfoFitTest {
    /** A result message of {@code n} ends, each with a 300-byte filler and a tcp_info object. */
    private static ObjectNode result(int n) {
        ObjectNode r = Control.message("result");
        ArrayNode ends = r.putArray("ends");
        for (int i = 0; i < n; i++) {
            ObjectNode e = ends.addObject().put("filler", "x".repeat(300));
            EndJson.tcp(e, new TcpStats(i, i + 10, 1_000_000, 50, 20, -1, 123_456_789, 65483, 65483));
        }
        r.set("end", ends.get(0));
        return r;
    }

    private static int bytes(ObjectNode n) throws Exception {
        return Control.MAPPER.writeValueAsBytes(n).length;
    }

    @Test
    void aMessageWithinTheLimitIsLeftAsItIs() throws Exception {
        ObjectNode r = result(3);
        String before = r.toString();
        assertThat(TcpInfoFit.fit(r, Control.MAX_MESSAGE_BYTES)).isZero();
        assertThat(r.toString()).isEqualTo(before);
        assertThat(TcpInfoFit.leftOut(r)).isNull();
    }

    @Test
    void theLastEndsLoseTheirTcpInfoUntilTheMessageFitsAndItSaysWhy() throws Exception {
        ObjectNode r = result(128);
        int withAll = bytes(r);
        assertThat(withAll).isGreaterThan(Control.MAX_MESSAGE_BYTES); // else the test proves nothing

        int leftOut = TcpInfoFit.fit(r, Control.MAX_MESSAGE_BYTES);

        assertThat(bytes(r)).isLessThanOrEqualTo(Control.MAX_MESSAGE_BYTES);
        assertThat(leftOut).isPositive().isLessThan(128);
        ArrayNode ends = (ArrayNode) r.get("ends");
        for (int i = 0; i < 128; i++) {
            assertThat(ends.get(i).has("tcp_info")).as("end %d", i).isEqualTo(i < 128 - leftOut);
        }
        // no more were left out than needed: putting the first one left out back passes the limit
        ObjectNode back = r.deepCopy();
        EndJson.tcp((ObjectNode) back.get("ends").get(128 - leftOut), new TcpStats(0, 10, 1_000_000, 50, 20, -1,
                123_456_789, 65483, 65483));
        assertThat(bytes(back)).isGreaterThan(Control.MAX_MESSAGE_BYTES);
        assertThat(TcpInfoFit.leftOut(r)).isEqualTo("the agent's result message would pass the control connection's "
                + "limit of 65536 bytes");
        // the ends kept read back exactly
        assertThat(EndJson.tcp(ends.get(5))).hasValue(new TcpStats(5, 15, 1_000_000, 50, 20, -1, 123_456_789, 65483, 65483));
    }
}
