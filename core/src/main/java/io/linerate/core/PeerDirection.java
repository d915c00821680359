package io.linerate.core;

/**
 * Which way a stream with a peer moves data, as iperf3 names it: forward (this host sends, its
 * default), reverse (the peer sends, its {@code -R}) or both at once (its {@code --bidir}).
 */
public enum PeerDirection {
    /** This host sends, the peer receives. */
    FORWARD,
    /** The peer sends, this host receives. */
    REVERSE,
    /** Both send at once, each direction counted apart. */
    BOTH
}
