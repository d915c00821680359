package io.linerate.suite;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.Resolution;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.UdpStreamTrial;
import io.linerate.core.spi.Transport;
import io.linerate.suite.LoopbackSuite.Config;
import io.linerate.suite.LoopbackSuite.Marker;
import io.linerate.suite.LoopbackSuite.Outcome;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The loopback suite's zero-loss figure: for each UDP marker that ran, RFC 2544's throughput (the
 * highest rate with no loss, NDR) by {@link RateSearch} over the marker's own transfer spec, with
 * its payload, family and traffic class, in the same namespace (so a {@code *_frag} marker's
 * trials fragment as its transfer did).
 *
 * <p>Unlimited-rate UDP on loopback loses datagrams by design: both ends share the host, the
 * sender only copies into the socket buffer while the receiver also wakes, copies out and counts,
 * so the sender outruns it and the socket buffer overflows. That loss measures how the two threads
 * were scheduled, and runs differ a lot; the NDR is the datagram figure to quote and gate.
 *
 * <p>The suite's trials are short by default ({@link #DEFAULT_TRIAL}, not RFC 2544's 60 s), so
 * that a search of each UDP marker takes seconds; {@link #trialLine()} says what was used.
 */
public final class LoopbackZeroLoss {
    /** The suite's default trial: 500 ms, measured after the suite's warm-up. */
    public static final Duration DEFAULT_TRIAL = Duration.ofMillis(500);

    private final Transport transport;
    private final Clock clock;
    private final SearchSpec search;

    /**
     * @param transport what every trial runs on, the suite's transport
     * @param clock the time source of every trial
     * @param search the search's parameters; {@link #defaultSearch(Config, Duration)} gives the suite's
     */
    public LoopbackZeroLoss(Transport transport, Clock clock, SearchSpec search) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.search = Objects.requireNonNull(search, "search");
    }

    /**
     * @param config the suite's config, whose warm-up every trial leaves out
     * @param trial the measured length of each trial; {@link #DEFAULT_TRIAL} for the suite's default
     * @return a search from 1 % of an unlimited trial's rate up to it, at 1 % resolution, one confirm
     *     trial, reporting every tenth of the trial
     * @throws IllegalArgumentException for a trial out of {@link SearchSpec}'s range, naming it
     */
    public static SearchSpec defaultSearch(Config config, Duration trial) {
        return SearchSpec.builder().trial(trial).warmup(config.warmup()).resolution(Resolution.DEFAULT).build();
    }

    /** @return the search's parameters */
    public SearchSpec search() {
        return search;
    }

    /** @return whether a marker gets a zero-loss search: the UDP ones */
    public static boolean applies(Marker m) {
        return m.protocol() == Protocol.UDP;
    }

    /**
     * Runs the search for an outcome of the suite.
     *
     * @param config the suite's config, which gives the marker's transfer spec
     * @param outcome what the suite's transfer of the marker came to
     * @return the search's result; empty for a TCP marker, or a UDP marker that was skipped, failed
     *     or invalid (no search where the transfer itself measured nothing usable)
     * @throws TransferException when a trial cannot be run
     */
    public Optional<SearchResult> run(Config config, Outcome outcome) throws TransferException {
        if (!applies(outcome.marker()) || !(outcome instanceof Outcome.Completed c) || !c.valid()) {
            return Optional.empty();
        }
        UdpStreamTrial trial = new UdpStreamTrial(config.spec(outcome.marker()), search, transport.name(), clock);
        return Optional.of(RateSearch.run(search, trial));
    }

    /** @return the line that says how the suite's searches run, for the suite's header */
    public String trialLine() {
        boolean rfc = search.trial().compareTo(SearchSpec.RFC2544_TRIAL) >= 0;
        String loads = search.strict() ? "one trial per load (strict, RFC 2544)"
                : String.format(Locale.ROOT, "a load fails when %d of up to %d trials fail (robust, MLRsearch)",
                        search.failuresToFail(), search.trialsPerLoad());
        return String.format(Locale.ROOT, "zero-loss search (RFC 2544 section 26.1 NDR) of each udp marker: trials of "
                        + "%.3f s after %.3f s warm-up, resolution %s, %d confirm %s%s, %s, max rate from an unlimited "
                        + "trial; %s", search.trial().toNanos() / 1e9, search.warmup().toNanos() / 1e9,
                search.resolution(), search.confirm(), search.strict() ? "trial" : "judgement",
                search.confirm() == 1 ? "" : "s", loads,
                rfc ? "RFC 2544's 60 s or more" : "shorter than RFC 2544's 60 s, for a suite that takes seconds");
    }

    /**
     * @param config the suite's config
     * @return the header's note on unlimited-rate UDP loss, when the suite runs a UDP marker at
     *     unlimited rate; empty otherwise
     */
    public static Optional<String> unlimitedUdpLossNote(Config config) {
        if (config.rateBitsPerSecond() != 0 || config.markers().stream().noneMatch(LoopbackZeroLoss::applies)) {
            return Optional.empty();
        }
        return Optional.of("unlimited-rate UDP loses datagrams on loopback, as expected: the sender outruns the "
                + "receiver on a shared host and the receive buffer overflows, so udp*_lost_pct measures how the two "
                + "threads were scheduled, not the stack, and differs from run to run; the datagram figure to quote "
                + "is the zero-loss rate, <marker>_ndr_mbps (--zero-loss)");
    }
}
