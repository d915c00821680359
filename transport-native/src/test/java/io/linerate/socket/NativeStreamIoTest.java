package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Native TCP streams in this JVM without linerate's own copies: the sender with sendfile(2) from a
 * payload file, the receiver with MSG_TRUNC, and both. Each moves exactly the bytes its bound asks
 * and the receiver counts what the sender sent; the result names each end's call and says the
 * payload was not checked; the payload file is closed with the transfer; the loops allocate
 * nothing in the window.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NativeStreamIoTest {

    private static TransferSpec.Builder tcp(boolean zeroCopy, boolean skipCopy) {
        return TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).ioTimeout(Duration.ofSeconds(30))
                .io(new StreamIo(0, false, zeroCopy, skipCopy));
    }

    private static TransferResult run(TransferSpec spec) throws Exception {
        try (Transfer t = Transports.byName(NativeTransport.NAME).open(spec, Clock.system())) {
            return t.run();
        }
    }

    /** @return how many descriptors of this process are a memfd named linerate-payload (/proc/self/fd) */
    private static long payloadFiles() throws IOException {
        long n = 0;
        for (String fd : Objects.requireNonNull(new File("/proc/self/fd").list())) {
            try {
                // memfd_create(2): the link reads "/memfd:<name> (deleted)"
                if (Files.readSymbolicLink(Path.of("/proc/self/fd", fd)).toString().startsWith("/memfd:linerate-payload")) {
                    n++;
                }
            } catch (NoSuchFileException e) {
                // the listing's own descriptor, closed again
            }
        }
        return n;
    }

    @ParameterizedTest
    @CsvSource({"true, false", "false, true", "true, true", "false, false"})
    void eachPathDeliversTheBytesItReportsAndNamesItsCalls(boolean zeroCopy, boolean skipCopy) throws Exception {
        long bytes = 64L * 1024 * 1024;
        TransferResult r = run(tcp(zeroCopy, skipCopy).payloadBytes(64 * 1024).bound(Bound.bytes(bytes)).build());

        // TCP loses nothing: the receiver counted every byte the bound let the sender send
        assertThat(r.bytesSent()).isEqualTo(bytes);
        assertThat(r.bytesReceived()).isEqualTo(bytes);
        assertThat(r.messagesSent()).isEqualTo(1024);
        DataPath p = r.dataPath().orElseThrow();
        assertThat(p.sender().call()).isEqualTo(zeroCopy ? "sendfile(2)" : "send(2)");
        assertThat(p.receiver().call()).isEqualTo(skipCopy ? "recv(2) with MSG_TRUNC" : "recv(2)");
        // every 64 KiB message took one call at least; a call moves at most what one message has left
        assertThat(p.sender().calls()).isGreaterThanOrEqualTo(1024).isLessThanOrEqualTo(bytes);
        // a receive takes 256 KiB at most: 64 MiB take 256 calls at least
        assertThat(p.receiver().calls()).isGreaterThanOrEqualTo(256).isLessThanOrEqualTo(bytes);
        for (DataPath.End e : new DataPath.End[] {p.sender(), p.receiver()}) {
            assertThat(e.segments()).isEqualTo(e.calls());
            assertThat(e.maxSegmentsPerCall()).isEqualTo(1);
        }
        if (skipCopy) {
            assertThat(p.payloadNote()).contains("payload not checked").contains("MSG_TRUNC");
        }
        if (zeroCopy) {
            assertThat(p.payloadNote()).contains("sendfile(2)");
        }
        if (!zeroCopy && !skipCopy) {
            assertThat(p.payloadNote()).isEmpty();
        }
    }

    @Test
    void aPayloadThatDoesNotDivideTheBoundEndsOnAShortSendfile() throws Exception {
        // 100 whole payloads of 100,000 bytes and a last message of 12,345: the file's first 12,345 bytes
        long bytes = 100L * 100_000 + 12_345;
        TransferResult r = run(tcp(true, true).payloadBytes(100_000).bound(Bound.bytes(bytes)).build());

        assertThat(r.bytesSent()).isEqualTo(bytes);
        assertThat(r.bytesReceived()).isEqualTo(bytes);
        assertThat(r.messagesSent()).isEqualTo(101);
        assertThat(r.dataPath().orElseThrow().sender().calls()).isGreaterThanOrEqualTo(101);
    }

    @Test
    void thePayloadFileIsOpenWhileTheTransferIsAndClosedWithIt() throws Exception {
        long before = payloadFiles();
        TransferSpec spec = tcp(true, false).payloadBytes(128 * 1024).bound(Bound.bytes(10_000_000)).build();
        try (Transfer t = Transports.byName(NativeTransport.NAME).open(spec, Clock.system())) {
            assertThat(payloadFiles()).as("memfd linerate-payload while the transfer is open").isEqualTo(before + 1);
            assertThat(t.run().bytesReceived()).isEqualTo(10_000_000);
        }
        assertThat(payloadFiles()).as("memfd linerate-payload after close").isEqualTo(before);

        // a transfer that sends from its buffer makes none
        try (Transfer t = Transports.byName(NativeTransport.NAME).open(tcp(false, true).bound(Bound.bytes(1000)).build(),
                Clock.system())) {
            assertThat(payloadFiles()).isEqualTo(before);
            t.run();
        }
    }

    /**
     * As {@code SteadyStateAllocationTest}: a loop that allocated per message would show at least
     * 16 bytes per message; a rare JIT recompilation in the window is a one-off of a few kilobytes.
     * So each run stays under 0.01 byte per message, and one of at most three shows exactly 0.
     */
    @Test
    void theSendfileAndMsgTruncLoopsAllocateNothingAfterWarmup() throws Exception {
        TransferSpec spec = tcp(true, true).warmup(Duration.ofSeconds(3)).duration(Duration.ofSeconds(1))
                .interval(Duration.ofSeconds(1)).build();
        boolean clean = false;
        for (int run = 0; run < 3 && !clean; run++) {
            TransferResult r = run(spec);
            long messages = r.messagesSent();
            assertThat(messages).isGreaterThan(10_000);
            assertThat(r.senderAllocatedBytes()).as("sender bytes allocated in the window").isNotNegative()
                    .isLessThan(messages / 100);
            assertThat(r.receiverAllocatedBytes()).as("receiver bytes allocated in the window").isNotNegative()
                    .isLessThan(messages / 100);
            clean = r.senderAllocatedBytes() == 0 && r.receiverAllocatedBytes() == 0;
        }
        assertThat(clean).as("one of three runs allocated nothing in its window").isTrue();
    }
}
