package io.linerate.peers.agent.client;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.SearchFormat;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The searching end of {@link TwoHostsSearchTest}, run in a JVM of its own inside host A:
 * {@code HOST PORT SECRET_FILE PAYLOAD MIN_RATE MAX_RATE TRIAL_MS RCVBUF} runs an NDR search over a
 * UDP stream through the agent at HOST:PORT, this host sending ({@link RemoteUdpTrial}), and prints
 * the result as one JSON line ({@link SearchFormat#json}).
 */
public final class TwoHostsSearchPeer {
    private TwoHostsSearchPeer() {}

    public static void main(String[] args) throws Exception {
        TransferSpec base = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4)
                .payloadBytes(Integer.parseInt(args[3])).receiveBufferBytes(Integer.parseInt(args[7]))
                .ioTimeout(Duration.ofSeconds(10)).endpoint(Endpoint.remote(args[0], Integer.parseInt(args[1])))
                .build();
        SearchSpec search = SearchSpec.builder().minBitsPerSecond(Long.parseLong(args[4]))
                .maxBitsPerSecond(Long.parseLong(args[5])).trial(Duration.ofMillis(Long.parseLong(args[6]))).build();
        RemoteOptions options = new RemoteOptions(Optional.of(SecretFile.read(Path.of(args[2]))), false);
        SearchResult r = RateSearch.run(search, RemoteUdpTrial.of(base, search, Clock.system(), options));
        System.out.println(SearchFormat.json(r, "udp4").toJson());
    }
}
