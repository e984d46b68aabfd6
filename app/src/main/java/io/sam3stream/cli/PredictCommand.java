package io.sam3stream.cli;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.RequestRejectedException;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.imaging.BinaryMask;
import io.sam3stream.imaging.CocoRle;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.imaging.MaskDecoding;
import io.sam3stream.imaging.OverlayInstance;
import io.sam3stream.imaging.OverlayRenderer;
import io.sam3stream.label.PredictJson;
import io.sam3stream.schemas.ErrorCodes;
import io.sam3stream.worker.ModelOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sam3 predict}: one image and its prompts through the engine in this process; prints (or writes) the
 * reference server's JSON response and optionally an overlay PNG.
 */
@Command(name = "predict", mixinStandardHelpOptions = true,
        description = {"Segments one image with one or more prompts and prints the reference server's /predict JSON."})
public final class PredictCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--image", required = true, paramLabel = "<file>", description = "A PNG or JPEG file.")
    private Path image;

    @Option(names = "--prompt", required = true, paramLabel = "<text>", description = "A noun phrase (repeatable).")
    private List<String> prompts;

    @Option(names = "--threshold", defaultValue = "0.5", description = "Score threshold (default: ${DEFAULT-VALUE}).")
    private float threshold;

    @Option(names = "--max-instances", defaultValue = "50",
            description = "Most instances per prompt (default: ${DEFAULT-VALUE}).")
    private int maxInstances;

    @Option(names = "--mask-format", defaultValue = "png",
            description = "png, rle, rle_compressed or none (default: ${DEFAULT-VALUE}).")
    private String maskFormat;

    @Option(names = "--out", paramLabel = "<result.json>", description = "Write the JSON here instead of printing it.")
    private Path out;

    @Option(names = "--overlay", paramLabel = "<overlay.png>", description = "Write an overlay of the instances.")
    private Path overlay;

    @Override
    public Integer call() throws IOException {
        Settings settings = Settings.fromEnvironment();
        byte[] bytes = Files.readAllBytes(image);
        SegmentRequest request;
        SegmentResponse response;
        try (Sam3Segmenter engine = EngineFactory.create(settings, model.open(settings),
                line -> spec.commandLine().getErr().println(line))) {
            request = new SegmentRequest(bytes, prompts.stream().map(PromptSpec::text).toList(), threshold,
                    maxInstances, MaskFormat.fromWireName(maskFormat.toLowerCase(Locale.ROOT)));
            response = engine.segment(request);
            byte[] json = new PredictJson(engine.info()).render(image, request, response);
            if (out != null) {
                Files.write(out, json);
            } else {
                PrintWriter w = spec.commandLine().getOut();
                w.println(new String(json, StandardCharsets.UTF_8));
                w.flush();
            }
        } catch (RequestRejectedException e) {
            int status = ErrorCodes.httpStatus(io.sam3stream.avro.ErrorCode.valueOf(e.code().name()));
            spec.commandLine().getErr().println("sam3 predict: " + e.code() + " (HTTP " + status + "): "
                    + e.getMessage());
            return 2;
        }
        if (overlay != null) {
            Files.write(overlay, OverlayRenderer.renderPng(new ImageDecoder(ImageLimits.DEFAULT).decode(bytes),
                    overlayInstances(response)));
        }
        return 0;
    }

    /** Masks for the overlay, whatever format the JSON carries them in. */
    private static List<OverlayInstance> overlayInstances(SegmentResponse response) {
        List<OverlayInstance> instances = new ArrayList<>();
        for (SegmentResponse.PromptResult prompt : response.results()) {
            for (SegmentResponse.Instance i : prompt.instances()) {
                BinaryMask mask;
                if (i.mask() instanceof EncodedMask.Png png) {
                    mask = MaskDecoding.fromPng(png.bytes());
                } else if (i.mask() instanceof EncodedMask.Rle rle) {
                    mask = MaskDecoding.fromRle(rle.height(), rle.width(), rle.counts());
                } else if (i.mask() instanceof EncodedMask.CompressedRle rle) {
                    mask = MaskDecoding.fromRle(rle.height(), rle.width(),
                            CocoRle.fromCompressed(rle.height(), rle.width(), rle.counts()).counts());
                } else {
                    mask = null; // "none": draw the box and score only
                }
                instances.add(new OverlayInstance(mask, i.boxXyxy(), i.score(), prompt.prompt()));
            }
        }
        return instances;
    }
}
