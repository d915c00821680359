package io.linerate.core;

/** The transport protocol a transfer moves data with. */
public enum Protocol {
    /** TCP byte stream; a "message" is one write of the payload size. */
    TCP("tcp"),
    /** UDP datagrams, each carrying a {@link DatagramHeader}. */
    UDP("udp");

    private final String label;

    Protocol(String label) {
        this.label = label;
    }

    /** @return the lower-case name used in output and on the command line ({@code tcp}, {@code udp}) */
    public String label() {
        return label;
    }

    /**
     * @param text {@code tcp} or {@code udp}, any case
     * @return the protocol
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Protocol parse(String text) {
        for (Protocol p : values()) {
            if (p.label.equalsIgnoreCase(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + text + "'; allowed: tcp, udp");
    }
}
