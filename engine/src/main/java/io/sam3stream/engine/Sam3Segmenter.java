package io.sam3stream.engine;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.device.EncoderTrace;
import io.sam3stream.imaging.BinaryMask;
import io.sam3stream.imaging.CocoRle;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageRejectedException;
import io.sam3stream.imaging.MaskUpsampler;
import io.sam3stream.imaging.ModelInputPreprocessor;
import io.sam3stream.imaging.PngEncoder;
import io.sam3stream.imaging.RgbImage;
import io.sam3stream.model.EncodedImage;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.heads.GroundingOutput;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.prompt.ExemplarBox;
import io.sam3stream.model.prompt.GeometryPrompt;
import io.sam3stream.model.result.DetectionPostProcessor;
import io.sam3stream.model.result.ImageSize;
import io.sam3stream.model.result.Instance;
import io.sam3stream.model.result.MaskLogits;
import io.sam3stream.model.result.PixelBox;
import io.sam3stream.model.result.PromptDetections;
import io.sam3stream.model.text.TextEncoding;
import io.sam3stream.text.ClipTokenizer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SAM3 pipeline of the reference server, with its contract: decode → preprocess → model → post-process →
 * mask encoding. Beyond the reference, the image features are computed once per request for all its prompts and
 * kept in a bounded LRU keyed by a digest of the decoded pixels, and text features come from a bounded LRU of
 * prompt strings, so a new prompt on a recent image skips the backbone entirely.
 *
 * <p>{@link #infer} must be called by one thread at a time (it owns the model and the caches);
 * {@link #prepare} and {@link #finish} are thread-safe.
 */
public final class Sam3Segmenter implements Segmenter {

    private final Sam3Model model;
    private final ClipTokenizer tokenizer;
    private final ImageDecoder decoder;
    private final ModelInputPreprocessor preprocessor;
    private final int maxPrompts;
    private final EngineInfo info;
    private final NDManager cacheManager = NDManager.newBaseManager();
    private final FeatureCache<String, CachedFeatures<EncodedImage>> imageCache;
    private final FeatureCache<String, CachedFeatures<TextEncoding>> textCache;
    private final AtomicLong backboneRuns = new AtomicLong();
    private final AtomicLong textEncoderRuns = new AtomicLong();

    /** A cached value with the manager that owns its arrays; closing releases both. */
    private record CachedFeatures<T extends AutoCloseable>(NDManager manager, T value) implements AutoCloseable {
        @Override
        public void close() {
            manager.close();
        }
    }

    /**
     * @param model           the loaded model (owned: closed with this segmenter)
     * @param tokenizer       SAM3's tokenizer
     * @param decoder         image decoder with the configured limits
     * @param maxPrompts      most prompts per request
     * @param imageCacheSize  image-feature LRU entries (0 = recompute for every request)
     * @param textCacheSize   text-feature LRU entries
     * @param info            identity reported in results
     */
    public Sam3Segmenter(Sam3Model model, ClipTokenizer tokenizer, ImageDecoder decoder, int maxPrompts,
            int imageCacheSize, int textCacheSize, EngineInfo info) {
        this.model = model;
        this.tokenizer = tokenizer;
        this.decoder = decoder;
        this.preprocessor = new ModelInputPreprocessor(model.config().resolution());
        this.maxPrompts = maxPrompts;
        this.info = info;
        this.imageCache = new FeatureCache<>(imageCacheSize);
        this.textCache = new FeatureCache<>(textCacheSize);
    }

    @Override
    public PreparedRequest prepare(SegmentRequest request) {
        long start = System.nanoTime();
        RequestValidation.check(request, maxPrompts);
        RgbImage image;
        try {
            image = decoder.decode(request.image());
        } catch (ImageRejectedException e) {
            throw new RequestRejectedException(ErrorCode.BAD_REQUEST, e.getMessage(), e);
        }
        RequestValidation.checkBoxes(request, image.width(), image.height());
        long decoded = System.nanoTime();
        float[] input = preprocessor.preprocess(image);
        long preprocessed = System.nanoTime();
        return new PreparedRequest(request, image.width(), image.height(), input, pixelDigest(image), start,
                millis(decoded - start), millis(preprocessed - decoded));
    }

    @Override
    public Inference infer(PreparedRequest p) {
        long start = System.nanoTime();
        CachedFeatures<EncodedImage> hit = imageCache.get(p.pixelDigest);
        boolean cached = hit != null;
        if (!cached) {
            imageCache.makeRoom();
        }
        CachedFeatures<EncodedImage> image = cached ? hit : encodeImage(p);
        long imageEncoded = System.nanoTime();
        long textEncoderNanos = 0;
        // Features computed for this request enter the text cache only once the request is done with every
        // prompt: storing one earlier could evict (and close) another prompt of the same request while it is still
        // needed, whatever the cache size.
        Map<String, CachedFeatures<TextEncoding>> computed = new LinkedHashMap<>();
        List<TextEncoding> texts = new ArrayList<>();
        for (PromptSpec prompt : p.request.prompts()) {
            CachedFeatures<TextEncoding> t = textCache.get(prompt.text());
            if (t == null) {
                t = computed.get(prompt.text());
            }
            if (t == null) {
                long textStart = System.nanoTime();
                t = encodeText(prompt.text());
                textEncoderNanos += System.nanoTime() - textStart;
                computed.put(prompt.text(), t);
            }
            texts.add(t.value());
        }
        List<PromptDetections> detections;
        long groundingStart = System.nanoTime();
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            NDArray features = NDArrays.concat(new NDList(texts.stream().map(TextEncoding::features).toList()), 0);
            NDArray masks = NDArrays.concat(new NDList(texts.stream().map(TextEncoding::mask).toList()), 0);
            List<GeometryPrompt> geometry = p.request.prompts().stream()
                    .map(prompt -> geometryOf(prompt, p.width, p.height)).toList();
            GroundingOutput out = model.ground(image.value(), new TextEncoding(features, masks), geometry,
                    StageSink.NONE);
            detections = new DetectionPostProcessor(p.request.threshold())
                    .process(out, new ImageSize(p.width, p.height)).stream()
                    .map(d -> d.highestScoring(p.request.maxInstances()))
                    .toList();
        } finally {
            computed.forEach((text, t) -> {
                if (!textCache.put(text, t)) {
                    t.close();
                }
            });
            if (!cached && !imageCache.put(p.pixelDigest, image)) {
                image.close();
            }
        }
        long end = System.nanoTime();
        return new Inference(p, detections, millis(end - start), cached, cached ? 0 : millis(imageEncoded - start),
                computed.size(), millis(textEncoderNanos), millis(end - groundingStart));
    }

    private CachedFeatures<EncodedImage> encodeImage(PreparedRequest p) {
        NDManager manager = cacheManager.newSubManager();
        try {
            int r = model.config().resolution();
            NDArray input = manager.create(p.modelInput, new Shape(1, 3, r, r));
            EncodedImage features = model.encodeImage(input, StageSink.NONE);
            input.close();
            backboneRuns.incrementAndGet();
            return new CachedFeatures<>(manager, features);
        } catch (RuntimeException e) {
            manager.close();
            throw e;
        }
    }

    private CachedFeatures<TextEncoding> encodeText(String text) {
        NDManager manager = cacheManager.newSubManager();
        try {
            int[] ids = tokenizer.tokenize(text, model.config().text().contextLength());
            long[] wide = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                wide[i] = ids[i];
            }
            NDArray idArray = manager.create(wide, new Shape(1, wide.length));
            TextEncoding encoding = model.encodeText(idArray, StageSink.NONE);
            idArray.close();
            textEncoderRuns.incrementAndGet();
            return new CachedFeatures<>(manager, encoding);
        } catch (RuntimeException e) {
            manager.close();
            throw e;
        }
    }

    /** Exemplar boxes in original pixels → the model's normalised cx, cy, w, h. */
    private static GeometryPrompt geometryOf(PromptSpec prompt, int width, int height) {
        List<ExemplarBox> boxes = prompt.boxes().stream().map(b -> new ExemplarBox(
                (b.x0() + b.x1()) / 2 / width, (b.y0() + b.y1()) / 2 / height,
                (b.x1() - b.x0()) / width, (b.y1() - b.y0()) / height, b.positive())).toList();
        return new GeometryPrompt(boxes);
    }

    @Override
    public SegmentResponse finish(Inference inference) {
        long start = System.nanoTime();
        PreparedRequest p = inference.prepared;
        MaskFormat format = p.request.maskFormat();
        List<SegmentResponse.PromptResult> results = new ArrayList<>();
        for (int i = 0; i < inference.detections.size(); i++) {
            PromptDetections d = inference.detections.get(i);
            List<SegmentResponse.Instance> instances = new ArrayList<>(d.instances().size());
            for (Instance instance : d.instances()) {
                MaskLogits logits = instance.maskLogits();
                BinaryMask mask = MaskUpsampler.of(logits.height(), logits.width(), p.height, p.width)
                        .toBinaryMask(logits.toArray(), 0);
                instances.add(new SegmentResponse.Instance(instance.score(),
                        clamp(instance.box(), p.width, p.height), mask.area(), encode(mask, format)));
            }
            results.add(new SegmentResponse.PromptResult(p.request.prompts().get(i).text(), d.presence(), instances));
        }
        long end = System.nanoTime();
        int prompts = Math.max(1, p.request.prompts().size());
        StageTimings timings = new StageTimings(p.decodeMs, p.preprocessMs, inference.forwardMs,
                inference.forwardMs / prompts, millis(end - start), millis(end - p.startNanos));
        return new SegmentResponse(p.width, p.height, model.config().resolution(), p.request.threshold(), format,
                results, timings);
    }

    private static EncodedMask encode(BinaryMask mask, MaskFormat format) {
        return switch (format) {
            case PNG -> new EncodedMask.Png(PngEncoder.encodeMask(mask));
            case RLE -> {
                CocoRle rle = CocoRle.encode(mask);
                yield new EncodedMask.Rle(rle.height(), rle.width(), rle.counts());
            }
            case RLE_COMPRESSED -> {
                CocoRle rle = CocoRle.encode(mask);
                yield new EncodedMask.CompressedRle(rle.height(), rle.width(), rle.compressedCounts());
            }
            case NONE -> null;
        };
    }

    /** The reference clamps boxes to the image: x to [0, W], y to [0, H]. */
    private static float[] clamp(PixelBox b, int width, int height) {
        return new float[] {
            Math.max(0, Math.min(width, b.x0())), Math.max(0, Math.min(height, b.y0())),
            Math.max(0, Math.min(width, b.x1())), Math.max(0, Math.min(height, b.y1()))
        };
    }

    /** SHA-256 of the decoded pixels and their size: equal digests mean equal model inputs. */
    private static String pixelDigest(RgbImage image) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(java.nio.ByteBuffer.allocate(8).putInt(image.width()).putInt(image.height()).array());
            sha.update(image.pixels());
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    /** Times the backbone ran (a cached image does not count). */
    public long backboneRuns() {
        return backboneRuns.get();
    }

    /** Times the text encoder ran (a cached prompt does not count). */
    public long textEncoderRuns() {
        return textEncoderRuns.get();
    }

    @Override
    public EngineInfo info() {
        return info;
    }

    @Override
    public Optional<EncoderTrace> encoderTrace() {
        return model.encoderTrace();
    }

    @Override
    public void close() {
        imageCache.close();
        textCache.close();
        cacheManager.close();
        model.close();
    }
}
