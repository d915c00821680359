package io.linerate.peers.iperf3;

/**
 * The state bytes of iperf3's control connection: each step of a test is one signed byte, sent by
 * whichever side moves the test on (iperf3's {@code iperf_api.h}). The server sends most of them;
 * the client sends {@link #TEST_END}, {@link #IPERF_DONE} and {@link #CLIENT_TERMINATE}.
 */
final class Iperf3State {
    /** Server: streams are up, timers start. */
    public static final byte TEST_START = 1;
    /** Server: data may flow. */
    public static final byte TEST_RUNNING = 2;
    /** Client: the test is over; the server stops counting and closes the data streams. */
    public static final byte TEST_END = 4;
    /** Server: send the parameters (a length-prefixed JSON object). */
    public static final byte PARAM_EXCHANGE = 9;
    /** Server: open the data streams. */
    public static final byte CREATE_STREAMS = 10;
    /** Server: it is shutting down (its operator pressed Ctrl-C). */
    public static final byte SERVER_TERMINATE = 11;
    /** Client: it is giving up (iperf3's client on Ctrl-C). */
    public static final byte CLIENT_TERMINATE = 12;
    /** Server: exchange results; the client sends its results first. */
    public static final byte EXCHANGE_RESULTS = 13;
    /** Server: the test is done; the client answers {@link #IPERF_DONE}. */
    public static final byte DISPLAY_RESULTS = 14;
    /** Client: the session is over. */
    public static final byte IPERF_DONE = 16;
    /** Server: it is busy with another test. */
    public static final byte ACCESS_DENIED = -1;
    /** Server: it failed; two 4-byte big-endian integers follow (iperf3's error code and errno). */
    public static final byte SERVER_ERROR = -2;

    private Iperf3State() {}

    /**
     * @param state a state byte
     * @return its name as iperf3 spells it, or {@code unknown state N}
     */
    public static String name(byte state) {
        return switch (state) {
            case TEST_START -> "TEST_START";
            case TEST_RUNNING -> "TEST_RUNNING";
            case TEST_END -> "TEST_END";
            case PARAM_EXCHANGE -> "PARAM_EXCHANGE";
            case CREATE_STREAMS -> "CREATE_STREAMS";
            case SERVER_TERMINATE -> "SERVER_TERMINATE";
            case CLIENT_TERMINATE -> "CLIENT_TERMINATE";
            case EXCHANGE_RESULTS -> "EXCHANGE_RESULTS";
            case DISPLAY_RESULTS -> "DISPLAY_RESULTS";
            case IPERF_DONE -> "IPERF_DONE";
            case ACCESS_DENIED -> "ACCESS_DENIED";
            case SERVER_ERROR -> "SERVER_ERROR";
            default -> "unknown state " + state;
        };
    }
}
