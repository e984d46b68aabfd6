package io.sam3stream.bench.jmh;

import io.sam3stream.imaging.BinaryMask;
import io.sam3stream.imaging.CocoRle;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.imaging.MaskUpsampler;
import io.sam3stream.imaging.ModelInputPreprocessor;
import io.sam3stream.imaging.PngEncoder;
import io.sam3stream.imaging.RgbImage;
import io.sam3stream.imaging.SyntheticPicture;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The pure-Java hot paths of a request at the reference benchmark's size (a 1920×1080 picture, 288×288 mask
 * logits): PNG decode, resize + normalise to the model input, mask upsample + binarise, PNG and COCO RLE encoding
 * of one mask. Run as docs/PERFORMANCE.md says; surefire never runs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ImagingHotPathsBenchmark {

    private static final int WIDTH = 1920;
    private static final int HEIGHT = 1080;
    private static final int GRID = 288;

    private byte[] png;
    private RgbImage picture;
    private ImageDecoder decoder;
    private ModelInputPreprocessor preprocessor;
    private float[] logits;
    private MaskUpsampler upsampler;
    private BinaryMask mask;

    @Setup
    public void setUp() {
        picture = SyntheticPicture.of(WIDTH, HEIGHT, 0);
        png = PngEncoder.encodeRgb(picture);
        decoder = new ImageDecoder(ImageLimits.DEFAULT);
        preprocessor = new ModelInputPreprocessor(ModelInputPreprocessor.SAM3_INPUT_SIZE);
        // one blob of positive logits with ragged edges, as a real instance's mask
        Random random = new Random(3);
        logits = new float[GRID * GRID];
        for (int y = 0; y < GRID; y++) {
            for (int x = 0; x < GRID; x++) {
                double d = Math.hypot(x - 120, y - 150) / 60;
                logits[y * GRID + x] = (float) (8 * (1 - d) + 0.5 * random.nextGaussian());
            }
        }
        upsampler = MaskUpsampler.of(GRID, GRID, HEIGHT, WIDTH);
        mask = upsampler.toBinaryMask(logits, 0);
    }

    @Benchmark
    public RgbImage decodePng() {
        return decoder.decode(png);
    }

    @Benchmark
    public float[] resizeAndNormalise() {
        return preprocessor.preprocess(picture);
    }

    @Benchmark
    public BinaryMask upsampleMask() {
        return upsampler.toBinaryMask(logits, 0);
    }

    @Benchmark
    public byte[] encodeMaskPng() {
        return PngEncoder.encodeMask(mask);
    }

    @Benchmark
    public CocoRle encodeMaskRle() {
        return CocoRle.encode(mask);
    }
}
