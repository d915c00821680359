package io.linerate.peers.agent.client;


import io.linerate.core.TransferException;

/**
 * The agent stopped (SIGTERM, SIGINT or {@link io.linerate.peers.agent.server.Agent#close()}) while its end of this run was
 * running: it sent what it had counted so far with its reason, and this host's counts at the stop
 * are given beside them. The counts cover the stream from its start, not a measured window, so no
 * rate is reported.
 */
public final class AgentStoppedException extends TransferException {
    private static final long serialVersionUID = 1L;
    private final transient String agentReason;
    private final long localBytes;
    private final long remoteBytes;
    private final long remoteMessages;

    AgentStoppedException(String what, String agentReason, long localBytes, long remoteBytes, long remoteMessages,
                          Throwable cause) {
        super(String.format(java.util.Locale.ROOT, "%s: %s; counts at the stop: this host %d bytes, the agent %d bytes "
                + "(%s)", what, agentReason, localBytes, remoteBytes, remoteMessages < 0
                        ? "writes unknown: a TCP receiver counts bytes, not the sender's writes"
                        : remoteMessages + " writes or datagrams"), cause);
        this.agentReason = agentReason;
        this.localBytes = localBytes;
        this.remoteBytes = remoteBytes;
        this.remoteMessages = remoteMessages;
    }

    /** @return why the agent says it stopped */
    public String agentReason() {
        return agentReason;
    }

    /** @return payload bytes this host's end sent or received before the stop */
    public long localBytes() {
        return localBytes;
    }

    /** @return payload bytes the agent's end sent or received before the stop */
    public long remoteBytes() {
        return remoteBytes;
    }

    /**
     * @return writes or datagrams the agent's end sent, or distinct datagrams it received, before the
     *     stop; -1 when unknown: the agent's end received TCP, which counts bytes, not writes
     */
    public long remoteMessages() {
        return remoteMessages;
    }
}
