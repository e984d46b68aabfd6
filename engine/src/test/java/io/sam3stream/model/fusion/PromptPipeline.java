package io.sam3stream.model.fusion;

import ai.djl.ndarray.NDManager;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.prompt.GeometryEncoding;
import io.sam3stream.model.prompt.GoldenPromptInputs;
import io.sam3stream.model.prompt.PromptSequence;
import io.sam3stream.model.prompt.SequenceGeometryEncoder;
import io.sam3stream.model.text.TextEncoding;
import io.sam3stream.model.text.VETextEncoder;
import io.sam3stream.testing.TinyGolden;

/** The tiny golden model's prompt side, from token ids and boxes to the prompt sequence, for tests. */
final class PromptPipeline implements AutoCloseable {

    private final NDManager weights = NDManager.newBaseManager();
    private final VETextEncoder text;
    private final SequenceGeometryEncoder geometry;
    private final TransformerEncoderFusion fusion;

    PromptPipeline() {
        Sam3Config config = TinyGolden.config();
        Params root = Params.root(TinyGolden.weights(), weights);
        text = VETextEncoder.load(root, config.text());
        geometry = SequenceGeometryEncoder.load(root, config);
        fusion = TransformerEncoderFusion.load(root, config.encoder());
    }

    /** The prompt sequence of the given golden cases, batched in that order. */
    PromptSequence prompt(NDManager manager, ImageTokens image, StageSink sink, String... cases) {
        try (TextEncoding encodedText = text.encode(GoldenPromptInputs.tokenIds(manager, cases), sink);
                GeometryEncoding encodedGeometry = geometry.encode(GoldenPromptInputs.geometries(cases), image, sink)) {
            return PromptSequence.assemble(encodedText, encodedGeometry, sink);
        }
    }

    TransformerEncoderFusion fusion() {
        return fusion;
    }

    @Override
    public void close() {
        weights.close();
    }
}
