package io.linerate.peers.iperf3;

import java.util.Comparator;
import java.util.List;

/**
 * A TCP data connection of a test and its place in the order the server accepted connections.
 * iperf3 tells a test's streams apart by their order (in a bidirectional test the client's
 * sending streams come first), and the server reads each cookie on a thread of its own, so the
 * cookies may be read in another order than the connections were accepted: a test sorts its
 * streams by {@code order} before it gives them their roles.
 *
 * @param order the accept order, counted by the accept thread
 * @param channel the connection, its cookie read
 */
record TcpArrival(long order, BoundedChannel channel) {
    /** Sorts a test's arrivals: TCP connections by accept order; UDP connect messages keep theirs. */
    static void sortInAcceptOrder(List<Object> arrivals) {
        if (arrivals.stream().allMatch(a -> a instanceof TcpArrival)) {
            arrivals.sort(Comparator.comparingLong(a -> ((TcpArrival) a).order()));
        }
    }

    /** Closes an arrival that is a TCP connection; anything else holds nothing open. */
    static void close(Object arrival) {
        if (arrival instanceof TcpArrival t) {
            t.channel().close();
        } else if (arrival instanceof BoundedChannel c) {
            c.close();
        }
    }

    /** Takes every arrival still queued and closes it. */
    static void closeAll(java.util.Queue<Object> arrivals) {
        for (Object left; (left = arrivals.poll()) != null; ) {
            close(left);
        }
    }
}
