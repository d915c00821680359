package io.linerate.core.live;

import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import java.util.OptionalDouble;
import java.util.function.LongConsumer;

/**
 * The live counters one running transfer publishes, from {@link LiveCounters#transfer(String)}.
 *
 * <p>Only the thread that owns the transfer writes them, and every write is one ordered store
 * (Agrona's {@code AtomicCounter.setRelease}) into memory another process may map: no allocation, no lock,
 * no system call. Readers see each value whole, but not the values of one moment together.
 * {@link #close()} frees the counters; a writer must not write after it.
 */
public final class TransferCounters implements AutoCloseable {
    private static final CounterType[] TYPES = CounterGroup.Kind.TRANSFER.types().toArray(new CounterType[0]);

    private final CounterSlots slots;
    private final LongConsumer bytesSent;
    private final LongConsumer bytesReceived;
    private final LongConsumer messagesSent;
    private final LongConsumer messagesReceived;
    private final LongConsumer lost;
    private final LongConsumer rate;

    TransferCounters(CounterSlots slots) {
        this.slots = slots;
        this.bytesSent = slots.counter(CounterType.BYTES_SENT);
        this.bytesReceived = slots.counter(CounterType.BYTES_RECEIVED);
        this.messagesSent = slots.counter(CounterType.MESSAGES_SENT);
        this.messagesReceived = slots.counter(CounterType.MESSAGES_RECEIVED);
        this.lost = slots.counter(CounterType.LOST);
        this.rate = slots.counter(CounterType.RATE);
        rate.accept(-1);
    }

    /** @return the counter types of a transfer group, in allocation order */
    static CounterType[] types() {
        return TYPES.clone();
    }

    /** @return counters that nobody else sees, for when live counters are off or the file is full */
    public static TransferCounters detached() {
        return new TransferCounters(CounterSlots.detached(TYPES));
    }

    /** @param bytes payload bytes the kernel accepted from the sender so far */
    public void bytesSent(long bytes) {
        bytesSent.accept(bytes);
    }

    /** @param bytes payload bytes the receiver counted so far */
    public void bytesReceived(long bytes) {
        bytesReceived.accept(bytes);
    }

    /** @param messages writes, datagrams or frames the sender completed so far */
    public void messagesSent(long messages) {
        messagesSent.accept(messages);
    }

    /** @param messages distinct datagrams or frames received so far */
    public void messagesReceived(long messages) {
        messagesReceived.accept(messages);
    }

    /** @param messages datagrams or frames found missing so far */
    public void lost(long messages) {
        lost.accept(messages);
    }

    /**
     * Publishes the rate of an interval that just closed, as {@link IntervalSample#bitsPerSecond()}
     * rounded to whole bit/s; -1 for an interval with no length (DESIGN rule 8: no rate, not
     * infinity).
     *
     * @param sample the interval that just closed
     */
    public void interval(IntervalSample sample) {
        OptionalDouble r = sample.bitsPerSecond();
        rate.accept(r.isPresent() ? Math.round(r.getAsDouble()) : -1);
    }

    /** Marks the file as updated now; call once per round of updates. */
    public void heartbeat() {
        slots.heartbeat();
    }

    /**
     * @param next a listener
     * @return a listener that publishes each interval's rate, then hands the sample to {@code next}
     */
    public IntervalListener publishingTo(IntervalListener next) {
        return s -> {
            interval(s);
            next.onInterval(s);
        };
    }

    /** Frees the counters: readers stop seeing this transfer. Idempotent; never throws. */
    @Override
    public void close() {
        slots.close();
    }
}
