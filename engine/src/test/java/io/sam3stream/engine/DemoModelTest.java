package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.Settings;
import io.sam3stream.imaging.SyntheticPicture;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.Sam3ConfigReader;
import io.sam3stream.model.config.VitConfig;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.DType;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.WeightSource;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The demo model is the real architecture at small widths: the configuration and every parameter's name and shape
 * equal the tiny upstream model's, its generated weights are finite, and it serves requests through the engine.
 */
class DemoModelTest {

    @Test
    void theDemoModelHasTheTinyUpstreamModelsConfigurationAndParameters() {
        ModelSource demo = ModelSource.demo();
        try (WeightSource generated = demo.weights();
                WeightSource tiny = CheckpointLoader.open(TinyGolden.dir().resolve("sam3-tiny.pt"))) {
            Sam3Config expectedConfig = Sam3ConfigReader.read(TinyGolden.dir().resolve("config.json"));
            assertEquals(withoutVit(expectedConfig), withoutVit(demo.config()));
            VitConfig a = expectedConfig.vit();
            VitConfig b = demo.config().vit();
            assertEquals(List.of(a.imgSize(), a.pretrainImgSize(), a.patchSize(), a.embedDim(), a.depth(),
                    a.numHeads(), a.windowSize()), List.of(b.imgSize(), b.pretrainImgSize(), b.patchSize(),
                    b.embedDim(), b.depth(), b.numHeads(), b.windowSize()));
            assertEquals(a.mlpRatio(), b.mlpRatio());
            assertArrayEquals(a.globalBlocks(), b.globalBlocks());
            TreeSet<String> expected = new TreeSet<>();
            for (String name : tiny.names()) {
                if (tiny.get(name).dtype() == DType.F32) {
                    expected.add(name);
                }
            }
            assertEquals(expected, new TreeSet<>(generated.names()));
            for (String name : expected) {
                RawTensor tensor = generated.get(name);
                assertArrayEquals(tiny.get(name).shape(), tensor.shape(), name);
                for (float v : tensor.toFloats()) {
                    assertTrue(Float.isFinite(v), name);
                }
            }
            assertTrue(demo.isDemo());
        }
    }

    /** Every hyper-parameter but the ViT's (whose global-block array a record compares by identity). */
    private static List<Object> withoutVit(Sam3Config c) {
        return List.of(c.resolution(), c.dModel(), c.text(), c.geometry(), c.encoder(), c.decoder(), c.numQueries(),
                c.scoringMlpHidden(), c.roiSize(), c.maskHeadHeads());
    }

    @Test
    void theDemoModelServesARequest() throws Exception {
        try (Segmenter engine = EngineFactory.create(Settings.from(Map.of("SAM3_PRECISION", "fp32")),
                ModelSource.demo(), line -> {})) {
            assertEquals("demo", engine.info().modelRepo());
            SegmentResponse r = engine.segment(SegmentRequest.of(SyntheticPicture.png(320, 240, 3), "a cat", "a dog"));
            assertEquals(2, r.results().size());
            assertEquals(168, r.inputSize());
            for (SegmentResponse.PromptResult p : r.results()) {
                assertTrue(Float.isFinite(p.presence()));
                p.instances().forEach(i -> assertTrue(i.score() >= 0 && i.score() <= 1));
            }
        }
    }

    @Test
    void onlyTheDemoModelIsNamedSo() {
        assertFalse(new ModelSource(null, null, "facebook/sam3", "demo", "x", java.util.Optional.empty()).isDemo());
    }
}
