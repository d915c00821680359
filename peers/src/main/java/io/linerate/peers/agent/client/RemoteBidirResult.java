package io.linerate.peers.agent.client;

import io.linerate.core.BidirectionalResult;

/**
 * A stream in both directions at once between this host and a peer agent, each direction reported
 * apart: its sender's and receiver's counts, each end with {@code "host":"local"} or
 * {@code "host":"remote"}. Metrics, validity and JSON are {@link BidirectionalResult}'s: each
 * direction's {@link RemoteStreamResult#metrics()} with the label {@code direction}.
 *
 * @param forward this host sent, the agent received
 * @param reverse the agent sent, this host received
 */
public record RemoteBidirResult(RemoteStreamResult forward, RemoteStreamResult reverse) implements BidirectionalResult {
}
