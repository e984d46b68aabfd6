package io.sam3stream.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.FloatBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The islands through JNI on configurations small enough that their outputs can be computed by hand. */
class IslandDeviceTest {

    @Test
    void loadsTheHostImplementationPackedInTheJar() {
        assertEquals("host", NativeLibrary.implementation());
    }

    @Test
    void listsTheWeightsOfEveryUsedBlockAndLayerWithUpstreamShapes() {
        try (IslandDevice device = TinyIslands.open()) {
            List<RequiredWeight> weights = device.requiredWeights();

            // pos_embed, patch_embed, ln_pre (2), 2 blocks x 12, 1 encoder layer x 18
            assertEquals(4 + 2 * 12 + 18, weights.size());
            assertTrue(weights.contains(new RequiredWeight("backbone.vision_backbone.trunk.pos_embed",
                    new long[] {1, 5, 8})));
            assertTrue(weights.contains(new RequiredWeight("backbone.vision_backbone.trunk.blocks.1.mlp.fc1.weight",
                    new long[] {16, 8})));
            assertTrue(weights.contains(new RequiredWeight(
                    "transformer.encoder.layers.0.cross_attn_image.in_proj_weight", new long[] {24, 8})));
        }
    }

    @Test
    void backboneOfTheZeroNetworkIsTheSumOfItsBiasesInChannelsFirstLayout() {
        try (IslandDevice device = TinyIslands.open()) {
            TinyIslands.uploadZeroNetwork(device);

            DeviceTensor out = device.runBackbone(TinyIslands.image());

            assertEquals(List.of(1L, 8L, 2L, 2L), List.of(box(out.shape())));
            FloatBuffer values = out.asFloatBuffer();
            for (int c = 0; c < TinyIslands.WIDTH; c++) {
                for (int cell = 0; cell < 4; cell++) {
                    assertEquals(TinyIslands.zeroNetworkTrunk(c), values.get(c * 4 + cell), 1e-6f,
                            "channel " + c + " cell " + cell);
                }
            }
        }
    }

    @Test
    void encoderOfTheZeroNetworkAddsItsBiasesToEachPromptsCopyOfTheSharedFeatures() {
        try (IslandDevice device = TinyIslands.open()) {
            TinyIslands.uploadZeroNetwork(device);
            float[] features = new float[3 * 8];
            for (int i = 0; i < features.length; i++) {
                features[i] = i * 0.5f;
            }

            DeviceTensor memory = device.runFusionEncoder(DeviceTensor.ofFloats(features, 1, 3, 8),
                    DeviceTensor.allocate(ElementType.F32, 3, 8), DeviceTensor.allocate(ElementType.F32, 2, 5, 8),
                    TinyIslands.mask(2, 5));

            assertEquals(List.of(2L, 3L, 8L), List.of(box(memory.shape())));
            float[] out = memory.toFloats();
            for (int b = 0; b < 2; b++) {
                for (int i = 0; i < features.length; i++) {
                    assertEquals(TinyIslands.zeroNetworkMemory(features[i], i % 8), out[b * 24 + i], 1e-6f);
                }
            }
        }
    }

    @Test
    void theHostImplementationCountsEveryEncoderRunAsOpByOpAndExpectsNoTrace() {
        try (IslandDevice device = TinyIslands.open()) {
            TinyIslands.uploadZeroNetwork(device);
            assertEquals(new EncoderTrace(false, false, 0, 0), device.encoderTrace());
            for (int run = 0; run < 3; run++) {
                device.runFusionEncoder(DeviceTensor.allocate(ElementType.F32, 1, 3, 8),
                        DeviceTensor.allocate(ElementType.F32, 3, 8), DeviceTensor.allocate(ElementType.F32, 2, 5, 8),
                        TinyIslands.mask(2, 5));
            }
            EncoderTrace trace = device.encoderTrace();
            assertEquals(new EncoderTrace(false, false, 0, 3), trace);
            assertEquals(0, trace.fallbacks(), "nothing falls back where no trace is expected");
        }
    }

    @Test
    void acceptsThePositionEmbeddingWithoutItsClsRowAsHuggingFaceStoresIt() {
        String name = "backbone.vision_backbone.trunk.pos_embed";
        // 2x2 patches without the cls row (Hugging Face's layout), and upstream's with it
        for (int rows : new int[] {4, 5}) {
            try (IslandDevice device = TinyIslands.open()) {
                device.uploadWeight(name, DeviceTensor.allocate(ElementType.F32, 1, rows, 8));
            }
        }
        // a row short of either form is refused, so the two accepted forms are a rule, not leniency
        try (IslandDevice device = TinyIslands.open()) {
            DeviceException refused = assertThrows(DeviceException.class,
                    () -> device.uploadWeight(name, DeviceTensor.allocate(ElementType.F32, 1, 3, 8)));
            assertTrue(refused.getMessage().contains("pos_embed"), refused.getMessage());
        }
    }

    @Test
    void describesTheImplementationAndItsThreads() {
        try (IslandDevice device = TinyIslands.open()) {
            String text = device.describe();

            assertTrue(text.startsWith("host: fp32 on 2 threads"), text);
        }
    }

    private static Long[] box(long[] values) {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }
}
