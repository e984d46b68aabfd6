package io.sam3stream.cli;

import static io.sam3stream.testing.SampledGoldenFile.f64;
import static io.sam3stream.testing.SampledGoldenFile.i64;

import io.sam3stream.parity.TensorStatistics;
import io.sam3stream.testing.SampledGoldenFile;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import io.sam3stream.weights.procedural.Fnv1a64;
import io.sam3stream.weights.procedural.SplitMix64;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The tiny golden set rewritten in the full-size sampled layout, as upstream's full-size golden was produced: float
 * stages of at least {@value #LARGE} elements sampled (indices drawn by the layout's rule: SplitMix64 seeded with
 * the FNV-1a hash of the stage name) with their statistics; the rest whole; the binary masks replaced by their
 * areas, bounding boxes and probability sums; and the derived {@code decoder.hs_last} and {@code query_index}.
 */
final class TinySampledGolden {

    static final int LARGE = 1024;
    private static final int SAMPLES = 64;

    private TinySampledGolden() {}

    /** The tiny outputs in the sampled layout, to be written by {@link #writeFolder} (possibly after changes). */
    static SampledGoldenFile outputs() {
        SampledGoldenFile outputs = new SampledGoldenFile();
        SafetensorsFile tiny = TinyGolden.outputs();
        for (String name : tiny.names()) {
            RawTensor t = tiny.get(name);
            if (name.endsWith(".masks")) {
                addMaskSummaries(outputs, name.substring(0, name.length() - "masks".length()), t,
                        tiny.get(name.replace(".masks", ".mask_probs")));
            } else if (t.dtype().isFloating() && t.size() >= LARGE) {
                float[] all = t.toFloats();
                outputs.sampled(name, t.shape(), all, sampleIndices(name, all.length), TensorStatistics.of(all));
            } else {
                outputs.put(name, t);
            }
            if (name.endsWith(".decoder.hs")) {
                long[] s = t.shape();
                float[] all = t.toFloats();
                int layer = Math.toIntExact(all.length / s[0]);
                outputs.put(name + "_last", RawTensor.ofFloats(
                        Arrays.copyOfRange(all, all.length - layer, all.length), Arrays.copyOfRange(s, 1, s.length)));
            }
            if (name.endsWith(".keep")) {
                boolean[] keep = t.toBooleans();
                long[] kept = IntStream.range(0, keep.length).filter(q -> keep[q]).asLongStream().toArray();
                outputs.put(name.replace(".keep", ".query_index"), i64(kept, kept.length));
            }
        }
        return outputs;
    }

    /** Writes a golden folder: the tiny set's config and inputs, and {@code outputs}. */
    static Path writeFolder(Path dir, SampledGoldenFile outputs) {
        try {
            Files.copy(TinyGolden.dir().resolve("config.json"), dir.resolve("config.json"));
            Files.copy(TinyGolden.dir().resolve("inputs.safetensors"), dir.resolve("inputs.safetensors"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        outputs.writeOnly(dir.resolve("outputs-sampled.safetensors"));
        return dir;
    }

    /** The layout's rule: distinct {@code mix64(seed + j·γ) mod n}, j = 1, 2, ..., seed = FNV-1a-64 of the name. */
    private static long[] sampleIndices(String stage, int count) {
        long seed = Fnv1a64.hash(stage);
        Set<Long> indices = new LinkedHashSet<>();
        for (long j = 0; indices.size() < SAMPLES; j++) {
            indices.add(Long.remainderUnsigned(SplitMix64.output(seed, j), count));
        }
        return indices.stream().mapToLong(Long::longValue).toArray();
    }

    private static void addMaskSummaries(SampledGoldenFile outputs, String prefix, RawTensor masks,
            RawTensor probabilities) {
        long[] s = masks.shape();
        int n = Math.toIntExact(s[0]);
        int height = Math.toIntExact(s[2]);
        int width = Math.toIntExact(s[3]);
        boolean[] binary = masks.toBooleans();
        float[] probs = probabilities.toFloats();
        long[] areas = new long[n];
        long[] boxes = new long[4 * n];
        double[] sums = new double[n];
        Arrays.fill(boxes, -1);
        for (int i = 0; i < n; i++) {
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    int p = (i * height + y) * width + x;
                    sums[i] += probs[p];
                    if (binary[p]) {
                        areas[i]++;
                        boolean first = boxes[4 * i] < 0;
                        boxes[4 * i] = first ? x : Math.min(boxes[4 * i], x);
                        boxes[4 * i + 1] = first ? y : Math.min(boxes[4 * i + 1], y);
                        boxes[4 * i + 2] = Math.max(boxes[4 * i + 2], x);
                        boxes[4 * i + 3] = Math.max(boxes[4 * i + 3], y);
                    }
                }
            }
        }
        outputs.put(prefix + "mask_area", i64(areas, n));
        outputs.put(prefix + "mask_bbox_xyxy_incl", i64(boxes, n, 4));
        outputs.put(prefix + "mask_prob_sum", f64(sums, n));
    }

}
