package io.sam3stream.weights.procedural;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.weights.RawTensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The upstream checksums of the procedural weights ({@code golden/sam3-full-procedural/param-checksums.json}):
 * exact bit checksums of every tensor, and sums, extremes and first values of twelve named ones.
 */
final class ParamChecksums {

    /** One tensor of {@code per_tensor}: name, shape, rule label ("R5 matrix gain 0.1") and bit checksums. */
    record Entry(String name, long[] shape, String rule, BitChecksum bits) {}

    /** One tensor of {@code named}, covering every rule and exception in detail. */
    record Named(String name, long[] shape, String rule, double scale, double offset, long seed, int[] firstBits,
            double[] firstValues, double sum, double sumOfSquares, double min, double max, BitChecksum bits) {}

    /**
     * {@code sum} = sum of the float32 bit patterns and {@code weightedSum} = sum of (flat index + 1) times the bit
     * pattern, both over unsigned 32-bit patterns, mod 2^64.
     */
    record BitChecksum(long sum, long weightedSum) {

        /** The checksums of a float32 tensor's values. */
        static BitChecksum of(RawTensor tensor) {
            IntBuffer bits = tensor.data().asIntBuffer();
            long sum = 0;
            long weightedSum = 0;
            for (int i = 0, n = bits.limit(); i < n; i++) {
                long pattern = bits.get(i) & 0xFFFFFFFFL;
                sum += pattern;
                weightedSum += (i + 1L) * pattern;
            }
            return new BitChecksum(sum, weightedSum);
        }
    }

    private static ParamChecksums loaded;

    private final List<Entry> perTensor;
    private final Map<String, Named> named;
    private final long digest;
    private final long totalElements;

    private ParamChecksums(JsonNode root) {
        List<Entry> entries = new ArrayList<>();
        root.get("per_tensor").properties().forEach(f -> entries.add(new Entry(f.getKey(),
                longs(f.getValue().get("shape")), f.getValue().get("rule").asText(), bitChecksum(f.getValue()))));
        Map<String, Named> details = new LinkedHashMap<>();
        root.get("named").properties().forEach(f -> details.put(f.getKey(), named(f.getKey(), f.getValue())));
        this.perTensor = Collections.unmodifiableList(entries);
        this.named = Collections.unmodifiableMap(details);
        this.digest = hex(root.get("all_tensors_bits_wsum_sum_mod_2^64"));
        this.totalElements = root.get("total_numel").asLong();
    }

    /** The checksums shipped in the test resources (parsed once per test JVM). */
    static synchronized ParamChecksums load() {
        if (loaded == null) {
            String resource = "/golden/sam3-full-procedural/param-checksums.json";
            try (InputStream in = ParamChecksums.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing test resource " + resource);
                }
                loaded = new ParamChecksums(new ObjectMapper().readTree(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return loaded;
    }

    /** All 1102 tensors in state-dict order. */
    List<Entry> perTensor() {
        return perTensor;
    }

    /** The twelve tensors described in detail, by name. */
    Map<String, Named> named() {
        return named;
    }

    /** Sum of every tensor's weighted bit checksum, mod 2^64. */
    long digest() {
        return digest;
    }

    /** Number of values over all tensors. */
    long totalElements() {
        return totalElements;
    }

    private static Named named(String name, JsonNode n) {
        JsonNode bitsNode = n.get("first4_f32_bits");
        int[] firstBits = new int[bitsNode.size()];
        for (int i = 0; i < firstBits.length; i++) {
            firstBits[i] = Integer.parseUnsignedInt(bitsNode.get(i).asText(), 16);
        }
        JsonNode valuesNode = n.get("first4_values");
        double[] firstValues = new double[valuesNode.size()];
        for (int i = 0; i < firstValues.length; i++) {
            firstValues[i] = valuesNode.get(i).asDouble();
        }
        return new Named(name, longs(n.get("shape")), n.get("rule").asText(), n.get("scale_s").asDouble(),
                n.get("offset_c").asDouble(), hex(n.get("seed_fnv1a64")), firstBits, firstValues,
                n.get("sum_f64").asDouble(), n.get("sumsq_f64").asDouble(), n.get("min").asDouble(),
                n.get("max").asDouble(), bitChecksum(n));
    }

    private static BitChecksum bitChecksum(JsonNode n) {
        return new BitChecksum(hex(n.get("bits_sum")), hex(n.get("bits_wsum")));
    }

    private static long hex(JsonNode n) {
        return Long.parseUnsignedLong(n.asText(), 16);
    }

    private static long[] longs(JsonNode array) {
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asLong();
        }
        return out;
    }
}
