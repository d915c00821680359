/**
 * linerate's agent, the server of {@code linerate serve} ({@link io.linerate.peers.agent.server.Agent},
 * configured by {@link io.linerate.peers.agent.server.AgentConfig} and bounded by
 * {@link io.linerate.peers.agent.server.AgentLimits}): it authenticates a client's session and runs
 * the far end of its stream, ping-pong echo, request/response server or raw-frame run.
 */
package io.linerate.peers.agent.server;
