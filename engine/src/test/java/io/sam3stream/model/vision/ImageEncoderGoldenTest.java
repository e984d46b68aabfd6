package io.sam3stream.model.vision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.BaseNDManager;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.neck.ImageFeatures;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.parity.StageComparison;
import io.sam3stream.testing.TinyGolden;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs the tiny golden image through trunk and neck and compares every image-side stage with upstream's. */
class ImageEncoderGoldenTest {

    private static final Map<String, StageComparison> RESULTS = new ConcurrentHashMap<>();
    private static NDManager manager;
    private static ImageEncoder encoder;

    @BeforeAll
    static void encodeGoldenImage() {
        manager = NDManager.newBaseManager();
        encoder = ImageEncoder.load(Params.root(TinyGolden.weights(), manager), TinyGolden.config(), NeckLevels.ALL);
        StageSink compareNow = (name, value) -> RESULTS.put(name, TinyGolden.compare(name, value));
        try (NDManager run = manager.newSubManager()) {
            NDArray image = TinyGolden.array(run, TinyGolden.inputs().get("image.preprocessed"));
            encoder.encode(image, compareNow).close();
        }
    }

    @AfterAll
    static void release() {
        manager.close();
    }

    static Stream<String> imageStages() {
        return TinyGolden.outputs().names().stream()
                .filter(n -> n.startsWith("vit.") || n.startsWith("neck."))
                .sorted();
    }

    @ParameterizedTest
    @MethodSource("imageStages")
    void stageMatchesUpstream(String stage) {
        StageComparison c = RESULTS.get(stage);
        assertNotNull(c, stage + " was never emitted");
        assertTrue(c.passed(), c.reportLine());
    }

    @Test
    void servingKeepsTheFirstThreeLevelsAndOnlyTheOneXEncoding() {
        ImageEncoder serving = ImageEncoder.load(Params.root(TinyGolden.weights(), manager), TinyGolden.config(),
                NeckLevels.USED);
        try (NDManager run = manager.newSubManager()) {
            NDArray image = TinyGolden.array(run, TinyGolden.inputs().get("image.preprocessed"));
            try (ImageFeatures features = serving.encode(image, StageSink.NONE)) {
                assertEquals(3, features.fpn().size());
                TinyGolden.assertStage("neck.fpn0", features.fpn().get(0));
                TinyGolden.assertStage("neck.fpn1", features.fpn().get(1));
                TinyGolden.assertStage("neck.fpn2", features.visionFeatures());
                TinyGolden.assertStage("neck.pos2", features.visionPos());
            }
        }
    }

    @Test
    void refusesImagesOfAnotherResolution() {
        try (NDManager run = manager.newSubManager()) {
            NDArray wrongSize = run.zeros(new Shape(1, 3, 112, 112));
            assertThrows(IllegalArgumentException.class, () -> encoder.encode(wrongSize, StageSink.NONE));
        }
    }

    @Test
    void encodingLeavesNoIntermediateArraysBehind() throws ReflectiveOperationException {
        try (NDManager run = manager.newSubManager()) {
            NDArray image = TinyGolden.array(run, TinyGolden.inputs().get("image.preprocessed"));
            ImageFeatures features = encoder.encode(image, StageSink.NONE);
            // the image, 4 levels and the 1x encoding: the trunk output and the other encodings are gone
            assertEquals(6, liveArrays(run));
            features.close();
            image.close();
            assertEquals(0, liveArrays(run));
        }
    }

    /** Arrays still attached to a manager (DJL exposes no count, so its resource table is read). */
    private static int liveArrays(NDManager manager) throws ReflectiveOperationException {
        Field resources = BaseNDManager.class.getDeclaredField("resources");
        resources.setAccessible(true);
        return ((Map<?, ?>) resources.get(manager)).size();
    }
}
