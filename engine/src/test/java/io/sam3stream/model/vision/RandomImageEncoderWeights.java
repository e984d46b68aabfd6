package io.sam3stream.model.vision;

import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.VitConfig;
import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.WeightSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Random weights of the right shapes for the trunk and the three used neck levels of any {@link Sam3Config}:
 * every tensor is N(0, 0.02²) (LayerNorm gains 1 + N(0, 0.02²)), generated when asked for, from a seed mixed with
 * the tensor's name so that each tensor is the same whatever order they are loaded in.
 */
final class RandomImageEncoderWeights implements WeightSource {

    private static final String TRUNK = "backbone.vision_backbone.trunk.";
    private static final String CONVS = "backbone.vision_backbone.convs.";

    private final Map<String, long[]> shapes = new LinkedHashMap<>();
    private final long seed;

    RandomImageEncoderWeights(Sam3Config config, long seed) {
        this.seed = seed;
        VitConfig vit = config.vit();
        long c = vit.embedDim();
        long p = vit.patchSize();
        long d = config.dModel();
        shapes.put(TRUNK + "patch_embed.proj.weight", new long[] {c, 3, p, p});
        shapes.put(TRUNK + "pos_embed", new long[] {1, (long) vit.pretrainGrid() * vit.pretrainGrid() + 1, c});
        norm(TRUNK + "ln_pre", c);
        for (int i = 0; i < vit.depth(); i++) {
            String block = TRUNK + "blocks." + i + ".";
            norm(block + "norm1", c);
            linear(block + "attn.qkv", 3 * c, c);
            linear(block + "attn.proj", c, c);
            norm(block + "norm2", c);
            linear(block + "mlp.fc1", vit.mlpHidden(), c);
            linear(block + "mlp.fc2", c, vit.mlpHidden());
        }
        transposedConv(CONVS + "0.dconv_2x2_0", c, c / 2);
        transposedConv(CONVS + "0.dconv_2x2_1", c / 2, c / 4);
        conv(CONVS + "0.conv_1x1", d, c / 4, 1);
        transposedConv(CONVS + "1.dconv_2x2", c, c / 2);
        conv(CONVS + "1.conv_1x1", d, c / 2, 1);
        conv(CONVS + "2.conv_1x1", d, c, 1);
        for (int j = 0; j < 3; j++) {
            conv(CONVS + j + ".conv_3x3", d, d, 3);
        }
    }

    private void norm(String name, long width) {
        shapes.put(name + ".weight", new long[] {width});
        shapes.put(name + ".bias", new long[] {width});
    }

    private void linear(String name, long out, long in) {
        shapes.put(name + ".weight", new long[] {out, in});
        shapes.put(name + ".bias", new long[] {out});
    }

    private void conv(String name, long out, long in, long kernel) {
        shapes.put(name + ".weight", new long[] {out, in, kernel, kernel});
        shapes.put(name + ".bias", new long[] {out});
    }

    private void transposedConv(String name, long in, long out) {
        shapes.put(name + ".weight", new long[] {in, out, 2, 2});
        shapes.put(name + ".bias", new long[] {out});
    }

    /** Total number of values. */
    long parameterCount() {
        return shapes.values().stream().mapToLong(RawTensor::elementCount).sum();
    }

    @Override
    public Set<String> names() {
        return shapes.keySet();
    }

    @Override
    public RawTensor get(String name) {
        long[] shape = shapes.get(name);
        if (shape == null) {
            throw new CheckpointException("no random tensor " + name);
        }
        SplittableRandom random = new SplittableRandom(seed ^ ((long) name.hashCode() << 32));
        boolean gain = name.endsWith(".weight") && (name.contains("norm") || name.contains("ln_pre"));
        float[] values = new float[Math.toIntExact(RawTensor.elementCount(shape))];
        for (int i = 0; i < values.length; i++) {
            values[i] = (gain ? 1f : 0f) + 0.02f * (float) random.nextGaussian();
        }
        return RawTensor.ofFloats(values, shape);
    }

    @Override
    public String description() {
        return "random N(0, 0.02²) image-encoder weights, seed " + seed;
    }

    @Override
    public void close() {}
}
