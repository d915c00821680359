package io.linerate.afpacket;

import io.linerate.afpacket.internal.Sysfs;
import io.linerate.core.Clock;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * RFC 2544's throughput test (section 26.1) over raw frames, swept over frame sizes: one
 * {@link RateSearch} of {@link RawFrameTrial}s per size, in the order given. Rates are L2 bit/s.
 * RFC 2544's sizes (section 9.1) include the 4-byte FCS, so its 64 … 1518 bytes are linerate's
 * {@link io.linerate.afpacket.EthernetWire#RFC2544_FRAME_SIZES_WITHOUT_FCS 60 … 1514}.
 */
public final class RawFrameSearch {
    /** Ethernet header bytes before the payload: a frame of MTU + 14 bytes fits. */
    private static final int ETH_HLEN = 14;

    private RawFrameSearch() {}

    /**
     * Checks every frame size before any trial runs.
     *
     * @param base the raw transfer with both ends
     * @param frameSizes L2 bytes without FCS, each 60..MTU+14 of both interfaces, distinct, 1 or more
     * @throws IllegalArgumentException naming the first bad size and the allowed range, or an
     *     interface that does not exist
     */
    public static void checkFrameSizes(RawTransferSpec base, List<Integer> frameSizes) {
        if (frameSizes.isEmpty()) {
            throw new IllegalArgumentException("no frame size given; allowed: one or more of "
                    + RawTransferSpec.MIN_FRAME + "..MTU+14, such as 60,124,252,508,1020,1276,1514");
        }
        HashSet<Integer> seen = new HashSet<>();
        for (int size : frameSizes) {
            withFrameSize(base, size); // 60..65535, naming the value
            if (!seen.add(size)) {
                throw new IllegalArgumentException("frame size " + size + " bytes is given twice; allowed: each size once");
            }
        }
        for (String ifname : List.of(base.txInterface().orElseThrow(), base.rxInterface().orElseThrow())) {
            if (!Sysfs.exists(ifname)) {
                throw new IllegalArgumentException("interface " + ifname + " does not exist; name an existing interface");
            }
            int mtu;
            try {
                mtu = Sysfs.mtu(ifname);
            } catch (IOException | NumberFormatException e) {
                continue; // the run itself reports an interface it cannot read
            }
            for (int size : frameSizes) {
                if (size > mtu + ETH_HLEN) {
                    throw new IllegalArgumentException("frame size " + size + " bytes does not fit interface " + ifname
                            + " with MTU " + mtu + "; allowed: " + RawTransferSpec.MIN_FRAME + ".." + (mtu + ETH_HLEN));
                }
            }
        }
    }

    /**
     * Runs the sweep.
     *
     * @param base the raw transfer to repeat, with both ends; its frame size is replaced by each of {@code frameSizes}
     * @param frameSizes L2 bytes without FCS, checked by {@link #checkFrameSizes}
     * @param search the search at every size; its rates are L2 bit/s
     * @param transportName the transport by name, or null for the first that runs raw frames
     * @param clock the time source of every run
     * @param each receives each size's result as soon as its search ends
     * @return one result per size, in order
     * @throws TransferException when a trial cannot be run
     * @throws IllegalArgumentException for a bad frame size or a spec without both ends, or a given
     *     min or max rate at which a trial carries fewer than 2 frames of a size
     *     ({@link SearchSpec#checkCarries(long)})
     */
    public static List<RawSizeResult> run(RawTransferSpec base, List<Integer> frameSizes, SearchSpec search,
                                          String transportName, Clock clock, Consumer<RawSizeResult> each)
            throws TransferException {
        return run(base, frameSizes, search, transportName, clock, each, RateSearch.Observer.NONE);
    }

    /**
     * Runs the sweep, telling {@code observer} of each trial of every size's search before it runs.
     *
     * @param observer hears of each trial ({@link RateSearch#run(SearchSpec, io.linerate.core.search.Trial,
     *     RateSearch.Observer)}); the sizes' searches follow one another in the order of {@code frameSizes}
     * @return one result per size, in order
     * @throws TransferException as {@link #run(RawTransferSpec, List, SearchSpec, String, Clock, Consumer)}
     * @throws IllegalArgumentException as {@link #run(RawTransferSpec, List, SearchSpec, String, Clock, Consumer)}
     */
    public static List<RawSizeResult> run(RawTransferSpec base, List<Integer> frameSizes, SearchSpec search,
                                          String transportName, Clock clock, Consumer<RawSizeResult> each,
                                          RateSearch.Observer observer) throws TransferException {
        Objects.requireNonNull(each, "each");
        Objects.requireNonNull(observer, "observer");
        new RawFrameTrial(base, search, transportName, clock); // both ends, before anything else
        checkFrameSizes(base, frameSizes);
        frameSizes.forEach(size -> search.checkCarries(size * 8L)); // every size's rates, before the first search
        LinkSpeed link = LinkSpeed.slower(LinkSpeed.of(base.txInterface().get()), LinkSpeed.of(base.rxInterface().get()));
        List<RawSizeResult> out = new ArrayList<>();
        for (int size : frameSizes) {
            SearchResult r = RateSearch.run(search, new RawFrameTrial(withFrameSize(base, size), search, transportName, clock),
                    observer);
            RawSizeResult s = new RawSizeResult(size, r, link);
            out.add(s);
            each.accept(s);
        }
        return out;
    }

    private static RawTransferSpec withFrameSize(RawTransferSpec b, int size) {
        return b.toBuilder().frameSize(size).build();
    }
}
