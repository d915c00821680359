package io.linerate.core;
import io.linerate.core.spi.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs one spec several times, each run a measurement of its own opened, run and closed in turn,
 * as the command line's {@code --repeat N} does: the gate compares distributions of runs, and asks
 * for at least five a side ({@code Gate.RECOMMENDED_RUNS} in linerate's regression module).
 *
 * <pre>{@code
 * List<MeasurementResult> runs = Runs.run(spec, 5); // five results, in the order run
 * }</pre>
 *
 * <p>A run that was interrupted ({@link MeasurementResult#interrupted()}) is the last: the list
 * then holds fewer than {@code repeat} results, the last of them marked interrupted. A run that
 * fails throws, and the runs before it are lost with it.
 */
public final class Runs {
    /** Most runs of one spec, 1000. */
    public static final int MAX_REPEAT = 1000;

    private Runs() {}

    /**
     * @param repeat runs asked for
     * @return {@code repeat}
     * @throws IllegalArgumentException naming the value and the allowed range, 1..{@value #MAX_REPEAT}
     */
    public static int checkRepeat(int repeat) {
        if (repeat < 1 || repeat > MAX_REPEAT) {
            throw new IllegalArgumentException("repeat " + repeat + " is out of range; allowed: 1.." + MAX_REPEAT);
        }
        return repeat;
    }

    /**
     * Runs {@code spec} {@code repeat} times on the first available transport that supports it
     * ({@link Transports#forSpec}), reading {@link Clock#system()}.
     *
     * @param spec a validated spec of any pattern
     * @param repeat runs, 1..{@value #MAX_REPEAT}
     * @return the results in the order run; fewer than {@code repeat} when a run was interrupted
     * @throws IllegalArgumentException for a repeat out of range, or when no transport can run the spec
     * @throws TransferException when a run fails, as {@link Measurement#run()}
     */
    public static List<MeasurementResult> run(MeasurementSpec spec, int repeat) throws TransferException {
        return run(Transports.forSpec(spec), spec, Clock.system(), repeat);
    }

    /**
     * Runs {@code spec} {@code repeat} times on {@code transport}: each run is opened with
     * {@link Transport#open(MeasurementSpec, Clock)}, run once and closed before the next opens, so
     * no socket, thread or ring of one run is there during the next.
     *
     * @param transport what runs the spec
     * @param spec a validated spec the transport supports
     * @param clock the time source of every reading
     * @param repeat runs, 1..{@value #MAX_REPEAT}
     * @return the results in the order run; fewer than {@code repeat} when a run was interrupted
     * @throws IllegalArgumentException for a repeat out of range, or a spec the transport cannot run
     * @throws TransferException when a run fails, as {@link Measurement#run()}
     */
    public static List<MeasurementResult> run(Transport transport, MeasurementSpec spec, Clock clock, int repeat)
            throws TransferException {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(clock, "clock");
        checkRepeat(repeat);
        List<MeasurementResult> out = new ArrayList<>(repeat);
        for (int i = 0; i < repeat; i++) {
            MeasurementResult r;
            try (Measurement m = transport.open(spec, clock)) {
                r = m.run();
            }
            out.add(r);
            if (r.interrupted()) {
                break;
            }
        }
        return List.copyOf(out);
    }
}
