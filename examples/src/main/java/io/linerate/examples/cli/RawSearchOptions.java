package io.linerate.examples.cli;

import io.linerate.afpacket.EthernetWire;
import java.util.List;
import picocli.CommandLine.Option;

/** The options of {@code linerate search} over raw frames: both interfaces and the frame sizes. */
final class RawSearchOptions {
    @Option(names = "--tx", paramLabel = "IF",
            description = "Search over raw frames (AF_PACKET, needs CAP_NET_RAW) sent from this interface; needs --rx.")
    String tx;

    @Option(names = "--rx", paramLabel = "IF", description = "The interface that receives the raw frames; needs --tx.")
    String rx;

    @Option(names = "--frame-sizes", split = ",", paramLabel = "BYTES", splitSynopsisLabel = ",",
            description = "With --tx/--rx: L2 frame sizes without FCS, each 60..MTU+14 (default: 60,124,252,508,1020,1276,"
                    + "1514, RFC 2544's 64..1518 less the 4-byte FCS).")
    List<Integer> frameSizes;

    @Option(names = "--batch", defaultValue = "64", paramLabel = "N",
            description = "With --tx/--rx: frames per send call, 1..1024 (default: ${DEFAULT-VALUE}).")
    int batch;

    /** @return whether a raw-frame search was asked for: --tx, --rx or --frame-sizes given */
    boolean requested() {
        return tx != null || rx != null || frameSizes != null;
    }

    /** @return the sizes given, or RFC 2544's without FCS */
    List<Integer> sizes() {
        return frameSizes != null ? frameSizes : EthernetWire.RFC2544_FRAME_SIZES_WITHOUT_FCS;
    }
}
