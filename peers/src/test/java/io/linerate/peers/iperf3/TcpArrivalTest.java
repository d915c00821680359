package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TcpArrivalTest {
    @Test
    void tcpArrivalsTakeTheAcceptOrderWhateverOrderTheirCookiesWereReadIn() {
        // a bidirectional test's second connection (the client's receiving stream) had its cookie read first
        List<Object> got = new ArrayList<>(List.of(new TcpArrival(8, null), new TcpArrival(7, null), new TcpArrival(9, null)));
        TcpArrival.sortInAcceptOrder(got);
        assertThat(got).extracting(a -> ((TcpArrival) a).order()).containsExactly(7L, 8L, 9L);
    }

    @Test
    void udpConnectMessagesKeepTheirOrder() {
        InetSocketAddress a = new InetSocketAddress("127.0.0.1", 40002);
        InetSocketAddress b = new InetSocketAddress("127.0.0.1", 40001);
        List<Object> got = new ArrayList<>(List.of(a, b));
        TcpArrival.sortInAcceptOrder(got);
        assertThat(got).containsExactly(a, b);
    }
}
