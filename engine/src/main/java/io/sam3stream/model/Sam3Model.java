package io.sam3stream.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.sam3stream.device.EncoderTrace;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.fusion.FusionEncoder;
import io.sam3stream.model.fusion.ImageTokens;
import io.sam3stream.model.fusion.TransformerEncoderFusion;
import io.sam3stream.model.heads.GroundingHeads;
import io.sam3stream.model.heads.GroundingInputs;
import io.sam3stream.model.heads.GroundingOutput;
import io.sam3stream.model.neck.ImageFeatures;
import io.sam3stream.model.neck.ImageMemo;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.ModuleClock;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.SmallOperatorThreads;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.prompt.GeometryEncoding;
import io.sam3stream.model.prompt.GeometryPrompt;
import io.sam3stream.model.prompt.PromptSequence;
import io.sam3stream.model.prompt.SequenceGeometryEncoder;
import io.sam3stream.model.text.TextEncoding;
import io.sam3stream.model.text.VETextEncoder;
import io.sam3stream.model.vision.Backbone;
import io.sam3stream.model.vision.ImageEncoder;
import io.sam3stream.weights.WeightSource;
import java.util.List;
import java.util.Optional;

/**
 * The SAM3 image model (upstream {@code Sam3Image} as driven by {@code Sam3Processor}), split where its costs
 * split: {@link #encodeImage} once per image (ViT + neck, ~93 % of the FLOPs), {@link #encodeText} once per prompt
 * string, and {@link #ground} once per (image, batch of prompts): geometry encoder, fusion encoder, decoder,
 * scoring and segmentation head. Weights are loaded once into the model's own manager and live until
 * {@link #close}.
 */
public final class Sam3Model implements AutoCloseable {

    /**
     * What the small-operator modules after the encoders compute in, whatever the model's precision (mixed
     * precision, as autocast keeps some operators in float32): the geometry encoder, the decoder, the scoring and the
     * segmentation head, except the pixel decoder's convolutions, which take the model's precision
     * ({@link Precision#bf16Convolutions}: bfloat16 where the CPU runs it natively). Their operators are small (the
     * decoder's products are 200 × 256 wide), so narrowing and widening cost what bfloat16 saves: measured at full
     * size on AVX512-BF16, the decoder took 0.84 s in bfloat16 against 0.74 s, and with AMX 0.85 s against 0.72 s; in
     * float32 they also add no error of their own to what the ViT passes on (the decoder's queries 0.036 instead of
     * 0.048 from upstream, the masks 0.27 instead of 0.38). The segmentation head's linear layers and attention in
     * bfloat16 made the tiny golden's mask IoUs fall from 0.989-0.994 to 0.984-0.990, nearly all of what the head
     * in bfloat16 costs, while its convolutions hold its time. {@code docs/PERFORMANCE.md} ("Precision") has the
     * measurements.
     */
    private static final Precision PROMPT_SIDE = Precision.FP32;

    private final Sam3Config config;
    private final NDManager weights;
    private final ImageEncoder imageEncoder;
    private final VETextEncoder textEncoder;
    private final SequenceGeometryEncoder geometryEncoder;
    private final FusionEncoder fusionEncoder;
    private final GroundingHeads heads;
    private final AutoCloseable islandDevice;
    private final java.util.function.Supplier<String> deviceDescription;
    private final java.util.function.Supplier<Optional<EncoderTrace>> encoderTrace;

    /**
     * The two device islands when they run outside DJL.
     *
     * @param backbone      the ViT trunk
     * @param fusionEncoder the fusion encoder
     * @param device        what serves them; closed with the model
     * @param description   tells which implementation and device serve them, as of now (a p150 reports whether its
     *                      traces are captured once the first forwards ran)
     * @param encoderTrace  tells how the fusion encoder's runs so far went through device traces
     */
    public record Islands(Backbone backbone, FusionEncoder fusionEncoder, AutoCloseable device,
            java.util.function.Supplier<String> description,
            java.util.function.Supplier<EncoderTrace> encoderTrace) {}

    private Sam3Model(Sam3Config config, NDManager weights, ImageEncoder imageEncoder, VETextEncoder textEncoder,
            SequenceGeometryEncoder geometryEncoder, FusionEncoder fusionEncoder, GroundingHeads heads,
            Islands islands) {
        this.config = config;
        this.weights = weights;
        this.imageEncoder = imageEncoder;
        this.textEncoder = textEncoder;
        this.geometryEncoder = geometryEncoder;
        this.fusionEncoder = fusionEncoder;
        this.heads = heads;
        this.islandDevice = islands == null ? null : islands.device();
        this.deviceDescription = islands == null ? () -> "cpu (DJL, libtorch)" : islands.description();
        this.encoderTrace = islands == null ? Optional::empty : () -> Optional.of(islands.encoderTrace().get());
    }

    /**
     * Builds the model from canonical-named weights.
     *
     * @param source where the weights come from; it may be closed once this returns (the model copies them)
     * @param levels the neck levels to compute: {@link NeckLevels#USED} to serve, {@link NeckLevels#ALL} to
     *               reproduce every upstream stage
     */
    public static Sam3Model load(WeightSource source, Sam3Config config, NeckLevels levels) {
        return load(source, config, levels, Precision.FP32, null);
    }

    /**
     * Builds the model from canonical-named weights, computing in {@code precision}.
     *
     * @see #load(WeightSource, Sam3Config, NeckLevels)
     */
    public static Sam3Model load(WeightSource source, Sam3Config config, NeckLevels levels,
            Precision precision) {
        return load(source, config, levels, precision, null);
    }

    /**
     * Builds the model with its two device islands (the ViT trunk and the fusion encoder) served elsewhere; their
     * weights are not loaded here.
     *
     * @param precision what the ViT trunk, the text encoder and the fusion encoder compute in when they run in DJL;
     *                  the rest of the prompt side computes in float32 except the pixel decoder's convolutions
     *                  (see {@link #PROMPT_SIDE})
     * @param islands   the islands, or null to run them in DJL like everything else
     */
    public static Sam3Model load(WeightSource source, Sam3Config config, NeckLevels levels,
            Precision precision, Islands islands) {
        NDManager manager = NDManager.newBaseManager();
        try {
            Params root = Params.root(source, manager, precision);
            Params promptSide = root.withPrecision(PROMPT_SIDE);
            return new Sam3Model(config, manager,
                    islands == null ? ImageEncoder.load(root, config, levels)
                            : ImageEncoder.load(root, config, levels, islands.backbone()),
                    VETextEncoder.load(root, config.text()),
                    SequenceGeometryEncoder.load(promptSide, config),
                    islands == null ? TransformerEncoderFusion.load(root, config.encoder())
                            : islands.fusionEncoder(),
                    GroundingHeads.load(promptSide, root, config),
                    islands);
        } catch (RuntimeException e) {
            manager.close();
            throw e;
        }
    }

    public Sam3Config config() {
        return config;
    }

    /**
     * ViT and neck of one image, and the segmentation head's terms of its finer levels (timed as
     * {@code pixel_decoder_levels}), which replace the levels.
     *
     * @param image (1, 3, R, R) preprocessed pixels; the encoding is allocated in its manager
     */
    public EncodedImage encodeImage(NDArray image, StageSink sink) {
        ImageFeatures features = imageEncoder.encode(image, sink);
        List<NDArray> terms;
        try {
            terms = heads.levelTerms(features.finerLevels());
        } catch (RuntimeException e) {
            features.close();
            throw e;
        }
        ModuleClock.lap("pixel_decoder_levels");
        NDArray visionFeatures = features.visionFeatures();
        for (NDArray level : features.fpn()) {
            if (level != visionFeatures) {
                level.close();
            }
        }
        return new EncodedImage(visionFeatures, features.visionPos(), terms,
                new ImageMemo(visionFeatures.getManager()));
    }

    /**
     * Text features of a batch of tokenised prompts.
     *
     * @param ids (B, context) int64 token ids; the encoding is allocated in their manager
     */
    public TextEncoding encodeText(NDArray ids, StageSink sink) {
        TextEncoding encoding;
        try (ComputeOptions.Scope oneThread = SmallOperatorThreads.enter()) {
            encoding = textEncoder.encode(ids, sink);
        }
        ModuleClock.lap("text_encoder");
        return encoding;
    }

    /**
     * Everything per (image, prompts): geometry encoder, prompt assembly, fusion encoder, decoder, scores, boxes
     * and mask logits for the B prompts of {@code text} on one image.
     *
     * @param image    the image's features (batch 1), broadcast over the prompts
     * @param text     (B, L, d) text features of the prompts
     * @param geometry one geometric prompt (exemplar boxes, possibly none) per text prompt
     */
    public GroundingOutput ground(EncodedImage image, TextEncoding text, List<GeometryPrompt> geometry,
            StageSink sink) {
        try (ImageTokens tokens = ImageTokens.flatten(image.visionFeatures(), image.visionPos());
                GeometryEncoding geo = timed("geometry_encoder", encodeGeometry(geometry, tokens, sink));
                PromptSequence prompt = PromptSequence.assemble(text, geo, sink);
                NDArray memory = timed("fusion_encoder",
                        fusionEncoder.encode(tokens, image.memo(), prompt.features(), prompt.mask(), sink))) {
            return heads.forward(new GroundingInputs(memory, tokens.pos(), prompt.features(), prompt.mask(),
                    image.levelTerms()), sink);
        }
    }

    private GeometryEncoding encodeGeometry(List<GeometryPrompt> geometry, ImageTokens tokens, StageSink sink) {
        try (ComputeOptions.Scope oneThread = SmallOperatorThreads.enter()) {
            return geometryEncoder.encode(geometry, tokens, sink);
        }
    }

    private static <T> T timed(String module, T result) {
        ModuleClock.lap(module);
        return result;
    }

    /** Which implementation and device run the ViT trunk and the fusion encoder, as of now. */
    public String deviceDescription() {
        return deviceDescription.get();
    }

    /** How the fusion encoder's runs went through device traces; empty when the encoder runs in DJL. */
    public Optional<EncoderTrace> encoderTrace() {
        return encoderTrace.get();
    }

    /** Releases the weights and the island device, if any. */
    @Override
    public void close() {
        weights.close();
        if (islandDevice != null) {
            try {
                islandDevice.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the island device failed", e);
            }
        }
    }
}
