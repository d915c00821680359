package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.DatagramHeader;
import io.linerate.core.TcpStats;
import io.linerate.core.spi.tcp.TcpInfoSource;
import io.linerate.core.spi.tcp.TcpInfoSources;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's retransmits as the sending thread reads them at its phase changes, from a source
 * whose figures the test sets, on a real connected loopback pair; and what a run says without a
 * source (this module's class path has none).
 */
class SenderTcpInfoTest {
    private ServerSocketChannel server;
    private SocketChannel tx;
    private SocketChannel rx;

    @BeforeEach
    void connect() throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        server = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0), 1);
        tx = SocketChannel.open(server.getLocalAddress());
        rx = server.accept();
    }

    @AfterEach
    void close() throws IOException {
        NioStreamTransfer.closeAll(java.util.List.of(server, tx, rx));
        ScriptedTcpInfoSource.BY_LOCAL_PORT.clear();
    }

    @Test
    void withoutASourceThereAreNoFiguresAndTheReasonSaysSo() {
        SenderTcpInfo info = SenderTcpInfo.open(tx, rx);
        info.accept(DatagramHeader.WINDOW);
        info.accept(DatagramHeader.AFTER);
        assertThat(info.stats()).isEmpty();
        assertThat(info.unavailable()).isEqualTo(TcpInfoSources.NO_SOURCE);
    }

    @Test
    void theWindowsRetransmitsAreTheTotalAtItsEndLessTheTotalAtItsStart(@TempDir Path dir) throws IOException {
        ScriptedTcpInfoSource.Figures sender = figures(tx);
        ScriptedTcpInfoSource.Figures receiver = figures(rx);
        receiver.rcvMss = 1400;
        SenderTcpInfo info = withScriptedSource(dir, () -> SenderTcpInfo.open(tx, rx));
        sender.totalRetrans = 2;
        info.accept(DatagramHeader.WARMUP);
        sender.totalRetrans = 3;
        info.accept(DatagramHeader.WINDOW);
        sender.totalRetrans = 8;
        info.accept(DatagramHeader.WINDOW);
        sender.totalRetrans = 10;
        info.accept(DatagramHeader.AFTER);
        sender.totalRetrans = 12;
        info.accept(DatagramHeader.AFTER);
        TcpStats t = info.stats().orElseThrow();
        assertThat(t.windowRetransmits()).isEqualTo(10 - 3);
        assertThat(t.totalRetransmits()).isEqualTo(12);
        assertThat(t.cwndBytes()).isEqualTo(10 * 1448);
        assertThat(t.senderMss()).isEqualTo(1448);
        assertThat(t.receiverMss()).isEqualTo(1400);
        // one read at open, one at each end of the window, one at the end of the run
        assertThat(sender.reads).isEqualTo(4);
    }

    @Test
    void aSenderThatNeverSawTheWindowEndCountsToTheTotalAfterTheRun(@TempDir Path dir) throws IOException {
        ScriptedTcpInfoSource.Figures sender = figures(tx);
        figures(rx);
        SenderTcpInfo info = withScriptedSource(dir, () -> SenderTcpInfo.open(tx, rx));
        sender.totalRetrans = 4;
        info.accept(DatagramHeader.WINDOW);
        sender.totalRetrans = 9;
        TcpStats t = info.stats().orElseThrow();
        assertThat(t.windowRetransmits()).isEqualTo(9 - 4);
        assertThat(t.totalRetransmits()).isEqualTo(9);
    }

    @Test
    void aFailedReadInTheWindowLeavesNoFiguresAndSaysWhy(@TempDir Path dir) throws IOException {
        ScriptedTcpInfoSource.Figures sender = figures(tx);
        figures(rx);
        SenderTcpInfo info = withScriptedSource(dir, () -> SenderTcpInfo.open(tx, rx));
        sender.failure = "netlink said EIO";
        info.accept(DatagramHeader.WINDOW);
        sender.failure = null;
        info.accept(DatagramHeader.AFTER);
        assertThat(info.stats()).isEmpty();
        assertThat(info.unavailable()).isEqualTo("netlink said EIO");
    }

    @Test
    void aConnectionTheSourceDoesNotFindLeavesNoFigures(@TempDir Path dir) throws IOException {
        figures(rx);
        SenderTcpInfo info = withScriptedSource(dir, () -> SenderTcpInfo.open(tx, rx));
        assertThat(info.stats()).isEmpty();
        assertThat(info.unavailable()).startsWith("the kernel has no ").contains(tx.getLocalAddress().toString());
    }

    private static ScriptedTcpInfoSource.Figures figures(SocketChannel end) throws IOException {
        ScriptedTcpInfoSource.Figures f = new ScriptedTcpInfoSource.Figures();
        ScriptedTcpInfoSource.BY_LOCAL_PORT.put(((InetSocketAddress) end.getLocalAddress()).getPort(), f);
        return f;
    }

    /** Runs {@code open} with a context class loader that registers {@link ScriptedTcpInfoSource}. */
    private static SenderTcpInfo withScriptedSource(Path dir, java.util.function.Supplier<SenderTcpInfo> open)
            throws IOException {
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve(TcpInfoSource.class.getName()), ScriptedTcpInfoSource.class.getName() + "\n");
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, SenderTcpInfoTest.class.getClassLoader())) {
            t.setContextClassLoader(loader);
            return open.get();
        } finally {
            t.setContextClassLoader(before);
        }
    }
}
