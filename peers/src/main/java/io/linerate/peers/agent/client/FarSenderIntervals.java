package io.linerate.peers.agent.client;

import io.linerate.core.sink.JsonObject;

/**
 * What became of the far sender's per-interval {@code TCP_INFO} in a TCP stream where the agent
 * sends ({@code --reverse}, the reverse half of {@code --bidir}). The agent's sending end reads its
 * socket at every interval and sends those samples with its counts once the run is over, as
 * iperf3's server sends its intervals in the results exchange; the client joins them onto its own
 * interval samples by index within the warm-up and within the window ({@link #JOIN}), so that the
 * result's intervals carry the far sender's figures. Its interval lines printed while the run went
 * on could not: those figures arrive at the end.
 *
 * @param samples interval samples the agent sent, with or without figures; 0 when it sent none
 * @param joined of this host's intervals, those that got the far sender's figures
 * @param unavailable why no figure was joined (an agent of an earlier release sends none, one whose
 *     transport cannot read {@code TCP_INFO} sends samples without figures); empty when some were
 */
public record FarSenderIntervals(int samples, int joined, String unavailable) {
    /** How the far sender's samples are joined onto this host's, as the JSON and text say it. */
    public static final String JOIN = "by index within the warm-up and within the window, onto this host's intervals";

    /**
     * @throws IllegalArgumentException for negative counts, or a reason with figures joined (or a blank one without)
     * @throws NullPointerException for a null reason
     */
    public FarSenderIntervals {
        java.util.Objects.requireNonNull(unavailable, "unavailable");
        if (samples < 0 || joined < 0) {
            throw new IllegalArgumentException("samples " + samples + " and joined " + joined + "; allowed: >= 0");
        }
        if (joined > 0 == !unavailable.isBlank()) {
            throw new IllegalArgumentException(joined + " intervals joined and the reason '" + unavailable
                    + "'; allowed: a reason exactly when none is joined");
        }
    }

    /**
     * @param samples interval samples the agent sent; 0 when it sent none
     * @param reason why the far sender's per-interval figures are missing; not blank
     * @return none joined, for {@code reason}
     * @throws IllegalArgumentException for negative samples or a blank reason
     */
    public static FarSenderIntervals unavailable(int samples, String reason) {
        return new FarSenderIntervals(samples, 0, reason);
    }

    /** @return whether some of this host's intervals carry the far sender's figures */
    public boolean available() {
        return joined > 0;
    }

    /**
     * Puts this into a stream's JSON detail: {@code tcp_intervals} = {@code {"host":"remote",
     * "samples":S,"joined":J,"join":...}} where figures were joined, else {@code tcp_intervals_unavailable}
     * = the reason, as {@code tcp_info_unavailable} says why a result has no {@code tcp_info}.
     *
     * @param detail the stream's JSON detail
     */
    public void putInto(JsonObject detail) {
        if (available()) {
            detail.put("tcp_intervals", JsonObject.create().put("host", "remote").put("samples", samples)
                    .put("joined", joined).put("join", JOIN));
        } else {
            detail.put("tcp_intervals_unavailable", unavailable);
        }
    }
}
