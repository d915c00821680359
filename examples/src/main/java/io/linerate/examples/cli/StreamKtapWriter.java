package io.linerate.examples.cli;

import io.linerate.core.IntervalSample;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.KtapDocument;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code stream --ktap}: one whole KTAP document. A stream in this JVM starts it before the run
 * and writes each interval as a diagnostic line ({@link KtapOutputs#streamStart}); a run with a
 * peer writes it whole at the end, its diagnostics naming the peer ({@link PeerTitles#ktap}) and
 * giving the result's notes (where the two ends disagree, or what the peer does not report), its
 * metrics both ends' ({@link KtapOutputs#single}).
 */
final class StreamKtapWriter implements StreamWriter {
    private final PrintWriter out;
    private final TransferSpec spec;
    private final String payloadNote;
    private KtapDocument doc;

    StreamKtapWriter(PrintWriter out, TransferSpec spec, String payloadNote) {
        this.out = out;
        this.spec = spec;
        this.payloadNote = payloadNote;
    }

    @Override
    public void start() {
        if (spec.endpoint().remoteAddress().isEmpty()) {
            doc = KtapOutputs.streamStart(out, spec, payloadNote);
        }
    }

    @Override
    public void onInterval(IntervalSample sample) {
        if (doc != null) {
            KtapOutputs.streamInterval(doc, sample, spec.protocol() == Protocol.UDP);
            out.flush(); // each interval line as it comes: a few a second at most
        }
    }

    @Override
    public void end(MeasurementResult result) {
        if (doc != null && result instanceof TransferResult r) {
            KtapOutputs.streamEnd(doc, r);
        } else {
            List<String> diagnostics = new ArrayList<>(List.of(PeerTitles.ktap(spec)));
            PeerTitles.notes(result).forEach(n -> diagnostics.add("note: " + n));
            KtapOutputs.single(out, diagnostics, result);
        }
        out.flush();
    }
}
