/**
 * One host's ends of a measurement whose other end runs on a peer on another host: the pieces the
 * peer protocols (linerate's agent, as client and as server) run on, so that a peer's ends run on
 * whichever transport offers them. A transport offers its ends through
 * {@link io.linerate.core.spi.Transport#peerEnds()}; {@link io.linerate.core.spi.ends.PeerEnds} opens
 * them: a TCP or UDP stream's data socket ({@link io.linerate.core.spi.ends.StreamChannel}), the two
 * ends of a ping-pong ({@link io.linerate.core.spi.ends.EchoEnd},
 * {@link io.linerate.core.spi.ends.PingPongClient}) and of request/response
 * ({@link io.linerate.core.spi.ends.RrServerEnd}, {@link io.linerate.core.spi.ends.RrServerSide}).
 * The control connection and its messages are the peer protocol's; the data path is the
 * transport's.
 */
package io.linerate.core.spi.ends;
