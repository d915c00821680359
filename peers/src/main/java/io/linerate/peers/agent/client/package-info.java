/**
 * The client of linerate's agent ({@code linerate serve}): one end of a stream
 * ({@link io.linerate.peers.agent.client.RemoteStreamTransfer}, {@link io.linerate.peers.agent.client.AgentStream},
 * {@link io.linerate.peers.agent.client.RemoteBidir}), a ping-pong or a request/response
 * ({@link io.linerate.peers.agent.client.RemoteLatency}) or a raw-frame run
 * ({@link io.linerate.peers.agent.client.RemoteRaw}) runs in this JVM, the other on a peer host (or
 * network namespace) in the agent; the remote results hold both ends' counts. The agent is reached
 * through core's SPI as a peer protocol ({@link io.linerate.peers.agent.client.AgentProtocol}).
 */
package io.linerate.peers.agent.client;
