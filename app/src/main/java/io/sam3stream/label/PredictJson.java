package io.sam3stream.label;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.engine.EngineInfo;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.kafka.ResultFactory;
import io.sam3stream.schemas.json.ResultRenderer;
import java.nio.file.Path;
import java.util.List;

/**
 * The reference server's {@code /predict} JSON of an answer computed in this process: the same Avro result a worker
 * would publish, rendered as the facade renders it, so that tools running the engine locally print exactly what a
 * client of the service would receive.
 */
public final class PredictJson {

    private final ResultFactory results;
    private final ResultRenderer renderer = new ResultRenderer(new ObjectMapper());

    public PredictJson(EngineInfo model) {
        this.results = new ResultFactory("cli", model);
    }

    /** The JSON of {@code response}, the answer to {@code request} about the image read from {@code image}. */
    public byte[] render(Path image, SegmentRequest request, SegmentResponse response) {
        SegmentationRequest avro = SegmentationRequest.newBuilder()
                .setRequestId("cli")
                .setImage(null)
                .setImageUri(image.toAbsolutePath().toUri().toString())
                .setPrompts(request.prompts().stream().map(p -> Prompt.newBuilder().setText(p.text())
                        .setBoxes(List.of()).build()).toList())
                .setThreshold(request.threshold())
                .setMaxInstances(request.maxInstances())
                .setMaskFormat(io.sam3stream.avro.MaskFormat.valueOf(request.maskFormat().wireName()))
                .build();
        SegmentationResult result = results.ok(avro, response, 0, response.timings().total());
        return renderer.render(result);
    }
}
