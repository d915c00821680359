package io.linerate.core;

import java.util.Objects;

/**
 * How a stream's two ends moved the payload through the kernel, counted over the whole transfer:
 * which system call each end made and how many datagrams (UDP segments on the wire) or writes
 * (TCP) each call carried. A transport reports it where it chooses among paths ({@link StreamIo}).
 *
 * @param sender the sending end's calls
 * @param receiver the receiving end's calls
 * @param payloadNote why the payload's content was not checked or not copied to this process
 *     ({@code MSG_TRUNC}, {@code sendfile(2)}); empty when it was handled as on every other path
 */
public record DataPath(End sender, End receiver, String payloadNote) {
    public DataPath {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(receiver, "receiver");
        Objects.requireNonNull(payloadNote, "payloadNote");
    }

    /** Why a payload received with {@code MSG_TRUNC} is not checked. */
    public static final String TRUNCATED = "payload not checked: the receiver took it with MSG_TRUNC, so the kernel "
            + "dropped the bytes instead of copying them";
    /** What a payload sent with {@code sendfile(2)} is. */
    public static final String FROM_FILE = "payload sent by sendfile(2) from a file of the payload, not from linerate's "
            + "buffer";

    /**
     * @param sender the sending end's calls
     * @param receiver the receiving end's calls
     * @param io what the spec asked for: its {@code MSG_TRUNC} receive and {@code sendfile(2)} send
     *     give the payload note
     * @return the path, its note naming what {@code io} did to the payload
     */
    public static DataPath of(End sender, End receiver, StreamIo io) {
        String note = io.skipReceiveCopy() ? TRUNCATED : "";
        if (io.zeroCopySend()) {
            note = note.isEmpty() ? FROM_FILE : note + "; " + FROM_FILE;
        }
        return new DataPath(sender, receiver, note);
    }

    /** The tail of an {@link End#unreported} end's call. */
    public static final String NOT_REPORTED = ": calls not reported (an agent serving on nio names none)";

    /**
     * One end's calls.
     *
     * @param call what the end called, as its man page names it: {@code sendmmsg(2)},
     *     {@code recvmmsg(2) with UDP_GRO}, {@code sendfile(2)}, ...
     * @param calls the calls that moved payload, whole transfer
     * @param segments the datagrams (UDP: each GSO or GRO segment counted once) or writes/reads
     *     (TCP) those calls moved, whole transfer
     * @param maxSegmentsPerCall the most any one call moved
     */
    public record End(String call, long calls, long segments, long maxSegmentsPerCall) {
        public End {
            Objects.requireNonNull(call, "call");
            if (calls < 0 || segments < 0 || maxSegmentsPerCall < 0) {
                throw new IllegalArgumentException("counts of " + call + " are negative: " + calls + " calls, "
                        + segments + " segments, " + maxSegmentsPerCall + " at most per call; allowed: 0 or more");
            }
        }

        /**
         * The far end of a stream with linerate's agent where that end's transport names no calls
         * (an agent serving on nio): its call says so, and its counts, all 0, stand for nothing.
         *
         * @param role what ran the far end, for the text ({@code the agent's receiving end})
         * @return an end that {@link #reported()} says is not reported
         */
        public static End unreported(String role) {
            return new End(role + NOT_REPORTED, 0, 0, 0);
        }

        /** @return false for an end of {@link #unreported}, whose counts stand for nothing */
        public boolean reported() {
            return !call.endsWith(NOT_REPORTED);
        }

        /** @return the mean segments per call; 0 when no call moved any */
        public double segmentsPerCall() {
            return calls == 0 ? 0 : (double) segments / calls;
        }
    }
}
