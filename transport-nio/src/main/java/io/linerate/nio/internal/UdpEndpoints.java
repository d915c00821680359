package io.linerate.nio.internal;

import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.DatagramWait;
import io.linerate.core.spi.UdpSocketDrops;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.SenderContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two UDP sockets on loopback connected to each other, so each only sees the other's datagrams.
 * Every datagram carries a {@link DatagramHeader}. The kernel fragments datagrams larger than the
 * path MTU (Linux's default IP_PMTUDISC_WANT), which is what the {@code *_frag} markers measure.
 */
public final class UdpEndpoints extends ChannelEndpoints<DatagramChannel> {
    private static final Logger LOG = LoggerFactory.getLogger(UdpEndpoints.class);
    /** Largest datagram a receive can hold, bytes. */
    static final int RECEIVE_BUFFER_BYTES = 65536;


    private UdpEndpoints(TransferSpec spec, DatagramChannel sender, DatagramChannel receiver,
                         Selector senderSelector, Selector receiverSelector) throws IOException {
        super(spec, sender, receiver, senderSelector, receiverSelector, false, java.util.Optional.empty());
    }

    static UdpEndpoints open(TransferSpec spec) throws TransferException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            ProtocolFamily pf = Waits.protocolFamily(spec.family());
            InetSocketAddress bindAddress = new InetSocketAddress(spec.family().loopbackAddress(), spec.port());
            DatagramChannel rx = DatagramChannel.open(pf);
            opened.add(rx);
            if (spec.receiveBufferBytes() > 0) {
                rx.setOption(StandardSocketOptions.SO_RCVBUF, spec.receiveBufferBytes());
            }
            try {
                rx.bind(bindAddress);
            } catch (IOException e) {
                throw Waits.bindFailure(bindAddress, "UDP", e);
            }
            DatagramChannel tx = DatagramChannel.open(pf);
            opened.add(tx);
            tx.setOption(StandardSocketOptions.IP_TOS, spec.trafficClass());
            if (spec.sendBufferBytes() > 0) {
                tx.setOption(StandardSocketOptions.SO_SNDBUF, spec.sendBufferBytes());
            }
            tx.bind(new InetSocketAddress(spec.family().loopbackAddress(), 0));
            tx.connect(rx.getLocalAddress());
            rx.connect(tx.getLocalAddress());
            tx.configureBlocking(false);
            rx.configureBlocking(false);
            Selector txSelector = Selector.open();
            opened.add(txSelector);
            Selector rxSelector = Selector.open();
            opened.add(rxSelector);
            tx.register(txSelector, SelectionKey.OP_WRITE);
            rx.register(rxSelector, SelectionKey.OP_READ);
            return new UdpEndpoints(spec, tx, rx, txSelector, rxSelector);
        } catch (IOException e) {
            closeQuietly(opened);
            throw new TransferException("cannot set up the UDP transfer on " + spec.family().loopbackAddress()
                    .getHostAddress() + ": " + e.getMessage(), e);
        } catch (TransferException | RuntimeException e) {
            closeQuietly(opened);
            throw e;
        }
    }


    /**
     * Adds the receiving socket's drops over the whole transfer ({@link UdpSocketDrops}), read once
     * after the receive loop ended, while the socket is still open; -1 where unknown.
     */
    @Override
    public TransferResult finish(TransferResult r) {
        return r.withReceiverSocketDrops(socketDrops(receiver));
    }

    /**
     * @param channel an open, bound UDP channel
     * @return its drops since it was created ({@link UdpSocketDrops}); -1 when unknown
     */
    static long socketDrops(DatagramChannel channel) {
        try {
            if (channel.getLocalAddress() instanceof InetSocketAddress local) {
                UdpSocketDrops.Reading d = UdpSocketDrops.of(local);
                if (!d.known()) {
                    LOG.debug("receiving socket drops unknown: {}", d.unknownReason());
                }
                return d.drops();
            }
            return -1;
        } catch (IOException e) {
            LOG.debug("receiving socket drops unknown: {}", e.toString());
            return -1;
        }
    }

    @Override
    void send(SenderContext ctx) throws IOException {
        sendLoop(sender, senderSelector, ctx, spec.payloadBytes(), spec.streamId());
    }

    /**
     * Sends sequence-numbered, time-stamped datagrams on a connected non-blocking channel until the
     * context's bound.
     *
     * @throws IOException when a send fails (such as ICMP port unreachable from a peer that is
     *     gone) or makes no progress for the I/O timeout
     */
    public static void sendLoop(DatagramChannel sender, Selector senderSelector, SenderContext ctx, int payloadBytes,
                         int streamId) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(payloadBytes);
        Clock clock = ctx.clock();
        Stall stall = new Stall("UDP sender", ctx.ioTimeoutNanos());
        int n;
        while ((n = ctx.nextMessageBytes()) > 0 && ctx.pace()) {
            DatagramHeader.write(buf, streamId, ctx.nextSequence(), clock.nanoTime(), ctx.phase());
            buf.clear().limit(n);
            stall.progressed();
            while (true) {
                int w = sender.write(buf);
                if (w > 0) {
                    ctx.sent(w, true);
                    break;
                }
                if (ctx.stopRequested()) {
                    return;
                }
                stall.stalled(ctx.bytesSent());
                Waits.select(senderSelector, Waits.POLL_MILLIS);
            }
        }
    }

    /** Accounts datagrams until told to stop. */
    @Override
    void receive(ReceiverContext ctx) throws IOException {
        receiveLoop(receiver, receiverSelector, ctx);
    }

    /**
     * Accounts datagrams on a connected non-blocking channel until told to stop, reading until the
     * socket is empty and then waiting as {@link DatagramWait} does.
     *
     * @param receiverSelector a selector {@code receiver} is registered with for OP_READ
     */
    public static void receiveLoop(DatagramChannel receiver, Selector receiverSelector, ReceiverContext ctx)
            throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(RECEIVE_BUFFER_BYTES);
        DatagramWait wait = new DatagramWait(receiverSelector);
        while (!ctx.stopRequested()) {
            buf.clear();
            int r = receiver.read(buf);
            if (r > 0) {
                ctx.datagram(buf, r);
                wait.read();
            } else {
                wait.await(Waits.POLL_MILLIS);
            }
        }
    }
}
