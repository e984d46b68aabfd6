package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.TinyGolden;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointLoaderTest {

    private static final String POS_EMBED = "backbone.vision_backbone.trunk.pos_embed";

    @TempDir
    Path dir;

    private static WeightSource tinyPt() {
        return CheckpointLoader.open(TinyGolden.dir().resolve("sam3-tiny.pt"));
    }

    private static WeightSource tinyHf() {
        return CheckpointLoader.open(TinyGolden.dir().resolve("sam3-tiny-hf.safetensors"));
    }

    private static void assertSameTensors(WeightSource expected, WeightSource actual) {
        assertEquals(expected.names(), actual.names());
        for (String name : expected.names()) {
            RawTensor e = expected.get(name);
            RawTensor a = actual.get(name);
            assertEquals(e.dtype(), a.dtype(), name);
            assertArrayEquals(e.shape(), a.shape(), name);
            assertEquals(e.data(), a.data(), name);
        }
    }

    @Test
    void hfSafetensorsYieldBitIdenticalCanonicalTensorsToThePt() {
        try (WeightSource pt = tinyPt(); WeightSource hf = tinyHf()) {
            assertEquals(316, pt.names().size(), "320 entries less the 4 freqs_cis tables");
            assertEquals(310, hf.names().size());
            Set<String> ptOnly = new TreeSet<>(pt.names());
            ptOnly.removeAll(hf.names());
            assertEquals(Set.of("direct_project", "pool_project", "pos_enc_project").stream()
                    .flatMap(m -> Set.of("weight", "bias").stream().map(p -> "geometry_encoder.points_" + m + "." + p))
                    .collect(Collectors.toSet()), ptOnly, "HF has no point-prompt modules");
            for (String name : hf.names()) {
                RawTensor expected = pt.get(name);
                RawTensor actual = hf.get(name);
                assertEquals(expected.dtype(), actual.dtype(), name);
                if (name.equals(POS_EMBED)) {
                    assertArrayEquals(new long[] {1, 17, 64}, expected.shape());
                    assertArrayEquals(new long[] {1, 16, 64}, actual.shape());
                    ByteBuffer withoutClsRow = expected.data().position(64 * Float.BYTES).slice();
                    assertEquals(withoutClsRow, actual.data(), name);
                } else {
                    assertArrayEquals(expected.shape(), actual.shape(), name);
                    assertEquals(expected.data(), actual.data(), name);
                }
            }
        }
    }

    @Test
    void keepsOnlyImageModelTensorsWithoutTheDetectorPrefixOrRopeTables() {
        try (WeightSource pt = tinyPt()) {
            assertTrue(pt.names().stream().noneMatch(n -> n.contains("detector") || n.endsWith("freqs_cis")));
            assertTrue(pt.contains("backbone.vision_backbone.trunk.blocks.0.attn.qkv.weight"));
            assertTrue(pt.contains("backbone.vision_backbone.convs.1.dconv_2x2.weight"));
        }
    }

    @Test
    void convertedSafetensorsLoadWithOrWithoutTheDetectorPrefix() {
        try (WeightSource pt = tinyPt()) {
            Path canonical = dir.resolve("canonical.safetensors");
            SafetensorsWriter.write(canonical, pt, Map.of());
            try (WeightSource loaded = CheckpointLoader.open(canonical)) {
                assertSameTensors(pt, loaded);
            }
            Map<String, RawTensor> prefixed = new LinkedHashMap<>();
            pt.names().forEach(n -> prefixed.put("detector." + n, pt.get(n)));
            RawTensor any = pt.get(POS_EMBED);
            prefixed.put("detector.backbone.vision_backbone.trunk.blocks.0.attn.freqs_cis", any);
            prefixed.put("detector.backbone.vision_backbone.sam2_convs.0.conv_1x1.weight", any);
            prefixed.put("tracker.maskmem_tpos_enc", any);
            Path upstream = dir.resolve("upstream.safetensors");
            SafetensorsWriter.write(upstream, prefixed, Map.of());
            try (WeightSource loaded = CheckpointLoader.open(upstream)) {
                assertSameTensors(pt, loaded);
            }
        }
    }

    @Test
    void skipsTheTrackerOfAnHfFile() {
        RawTensor t = RawTensor.ofFloats(new float[] {1, 2}, 1, 2);
        Path file = dir.resolve("model.safetensors");
        SafetensorsWriter.write(file, Map.of("detector_model.text_projection.weight", t,
                "tracker_model.memory_encoder.weight", t, "tracker_neck.fpn_layers.0.proj1.weight", t), Map.of());
        try (WeightSource loaded = CheckpointLoader.open(file)) {
            assertEquals(Set.of("backbone.language_backbone.resizer.weight"), loaded.names());
        }
    }

    @Test
    void refusesAnHfAttentionWithoutAllOfQkv() {
        RawTensor t = RawTensor.ofFloats(new float[] {1, 2}, 1, 2);
        String layer = "detector_model.detr_encoder.layers.0.self_attn.";
        Path file = dir.resolve("model.safetensors");
        SafetensorsWriter.write(file, Map.of(layer + "q_proj.weight", t, layer + "k_proj.weight", t), Map.of());
        CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointLoader.open(file));
        assertTrue(e.getMessage().contains("transformer.encoder.layers.0.self_attn.in_proj_weight"), e.getMessage());
    }

    @Test
    void loadsAWrappedPtAndDropsItsTracker() throws IOException {
        byte[] pickle = new PickleBuilder().proto(2).op('}').string("model").op('}').mark()
                .string("detector.transformer.decoder.query_embed.weight")
                .tensor("FloatStorage", "0", 4, 0, new long[] {2, 2}, new long[] {2, 1})
                .string("tracker.maskmem_tpos_enc")
                .tensor("FloatStorage", "0", 4, 0, new long[] {4}, new long[] {1})
                .op('u').op('s').op('.').bytes();
        Path file = new TorchArchiveBuilder("sam3").pickle(pickle).floatStorage("0", 1, 2, 3, 4)
                .writeTo(dir.resolve("sam3.pt"));
        try (WeightSource loaded = CheckpointLoader.open(file)) {
            assertEquals(Set.of("transformer.decoder.query_embed.weight"), loaded.names());
            assertArrayEquals(new float[] {1, 2, 3, 4}, loaded.get("transformer.decoder.query_embed.weight")
                    .toFloats());
        }
    }

    @Test
    void refusesAFileWithoutImageModelTensors() {
        Path file = dir.resolve("tracker.safetensors");
        SafetensorsWriter.write(file, Map.of("tracker.x", RawTensor.ofFloats(new float[] {1}, 1)), Map.of());
        CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointLoader.open(file));
        assertTrue(e.getMessage().contains("no SAM3 image-model tensors"), e.getMessage());
    }
}
