package io.linerate.peers.agent.client;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.UdpStreamTrial;
import java.util.Objects;

/**
 * The trial of a rate search ({@link RateSearch}) over a UDP stream through a peer agent: each trial
 * is one {@link RemoteStreamTransfer} with the agent at the base spec's {@link Endpoint.Remote},
 * which answers the agent's challenge with the secret of the {@link RemoteOptions}. Forward, this
 * host sends and the agent's receiver counts the loss; reverse, the agent sends and this host counts.
 * The secret stays in the options the trial holds: it never enters a spec, which is printed and
 * written to JSON.
 */
public final class RemoteUdpTrial {
    private RemoteUdpTrial() {}

    /**
     * @param base the stream to repeat: protocol UDP, family, payload, remote endpoint, options; its
     *     rate, bound, interval and warm-up are replaced by each trial's
     * @param search gives the trial length, interval and warm-up
     * @param clock the time source of this host's end
     * @param options the agent's secret, and who sends
     * @return the trial; each run opens a session on the agent and closes it
     * @throws IllegalArgumentException when the base spec is not UDP or its endpoint is loopback
     */
    public static UdpStreamTrial of(TransferSpec base, SearchSpec search, Clock clock, RemoteOptions options) {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(options, "options");
        if (!(base.endpoint() instanceof Endpoint.Remote)) {
            throw new IllegalArgumentException("a search through the agent needs a remote endpoint; got " + base.endpoint());
        }
        if (base.protocol() != Protocol.UDP) {
            throw new IllegalArgumentException("a rate search over a stream needs UDP, which counts loss; got "
                    + base.protocol().label());
        }
        return new UdpStreamTrial(base, search, spec -> RemoteStreamTransfer.open(spec, clock, options));
    }
}
