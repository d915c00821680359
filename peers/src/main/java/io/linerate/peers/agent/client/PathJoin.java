package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.DataPath;
import io.linerate.core.TransferResult;
import io.linerate.peers.agent.internal.wire.EndJson;
import java.io.IOException;
import java.util.Optional;

/**
 * A stream's data path with the agent: this end's system calls and the agent's end's (its
 * {@code data_path}), in the sender's and the receiver's places. A spec that asked for a path of
 * its own ({@link io.linerate.core.StreamIo}) needs the agent's end to say it ran it: an agent of a
 * release before those options reads the spec without them and runs its default path, so its result
 * is invalid and says so, never a silent fallback.
 */
final class PathJoin {
    /** Why a stream that asked for a path is invalid when the agent sent no {@code data_path}. */
    static final String NO_FAR_PATH = "the agent sent no data_path for its end, though the spec asked for %s: an "
            + "agent of a release before --batch, --gso, --zerocopy and --skip-rx-copy ignores them and ran its "
            + "default path; upgrade the agent, or run it with serve --transport native";

    private PathJoin() {}

    /**
     * @param joined the stream's result, both ends' counts joined
     * @param local this end's calls, where its transport reports them
     * @param localSends whether this end sent
     * @param remote the agent's end of the stream in its result message
     * @return {@code joined} with the data path where both ends reported theirs; with an invalid
     *     reason where the spec asked for a path and the agent's end did not report one
     * @throws IOException when the agent's {@code data_path} is malformed
     */
    static TransferResult join(TransferResult joined, Optional<DataPath.End> local, boolean localSends, JsonNode remote)
            throws IOException {
        Optional<DataPath.End> far = EndJson.dataPath(remote);
        if (far.isEmpty()) {
            return joined.spec().io().isDefault() ? joined
                    : joined.withInvalidReason(String.format(NO_FAR_PATH, joined.spec().io()));
        }
        if (local.isEmpty()) {
            return joined;
        }
        DataPath.End sender = localSends ? local.get() : far.get();
        DataPath.End receiver = localSends ? far.get() : local.get();
        return joined.withDataPath(DataPath.of(sender, receiver, joined.spec().io()));
    }
}
