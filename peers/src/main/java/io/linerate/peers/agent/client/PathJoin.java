package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.DataPath;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferResult;
import io.linerate.peers.agent.internal.wire.EndJson;
import java.io.IOException;
import java.util.Optional;

/**
 * A stream's data path with the agent: this end's system calls and the agent's end's (its
 * {@code data_path}), in the sender's and the receiver's places. A spec that asked for a path of
 * its own of the agent's end ({@link StreamIo}: a batch, GSO, and zero-copy send where the agent
 * sends, skip-receive-copy where it receives) needs that end to say it ran it: an agent of a release
 * before those options reads the spec without them and runs its default path, so its result is
 * invalid and says so, never a silent fallback.
 */
final class PathJoin {
    /** Why a stream that asked for a path is invalid when the agent sent no {@code data_path}. */
    static final String NO_FAR_PATH = "the agent sent no data_path for its end, though the spec asked for %s: an "
            + "agent of a release before --batch, --gso, --zerocopy and --skip-rx-copy ignores them and ran its "
            + "default path; upgrade the agent, or run it with serve --transport native";

    private PathJoin() {}

    /** @return whether {@code io} asks anything of the end that sends ({@code sending}) or receives */
    private static boolean askedOf(StreamIo io, boolean sending) {
        return io.batch() > 1 || io.gso() || (sending ? io.zeroCopySend() : io.skipReceiveCopy());
    }

    /** @return whether {@code io} asks this end to send from a file or to receive with MSG_TRUNC */
    private static boolean changesPayload(StreamIo io, boolean localSends) {
        return localSends ? io.zeroCopySend() : io.skipReceiveCopy();
    }

    /**
     * @param joined the stream's result, both ends' counts joined
     * @param local this end's calls, where its transport reports them
     * @param localSends whether this end sent
     * @param remote the agent's end of the stream in its result message
     * @return {@code joined} with the data path where both ends reported theirs, or where this end
     *     alone sent by sendfile(2) or received with MSG_TRUNC (the agent's end then
     *     {@link DataPath.End#unreported}); with an invalid reason where the spec asked for a path
     *     and the agent's end did not report one
     * @throws IOException when the agent's {@code data_path} is malformed
     */
    static TransferResult join(TransferResult joined, Optional<DataPath.End> local, boolean localSends, JsonNode remote)
            throws IOException {
        Optional<DataPath.End> far = EndJson.dataPath(remote);
        StreamIo io = joined.spec().io();
        if (far.isEmpty()) {
            if (askedOf(io, !localSends)) {
                return joined.withInvalidReason(String.format(NO_FAR_PATH, io));
            }
            if (local.isEmpty() || !changesPayload(io, localSends)) {
                return joined;
            }
            // this end alone sent by sendfile(2) or received with MSG_TRUNC: the result still says so
            far = Optional.of(DataPath.End.unreported(localSends ? "the agent's receiving end"
                    : "the agent's sending end"));
        }
        if (local.isEmpty()) {
            return joined;
        }
        DataPath.End sender = localSends ? local.get() : far.get();
        DataPath.End receiver = localSends ? far.get() : local.get();
        return joined.withDataPath(DataPath.of(sender, receiver, io));
    }
}
