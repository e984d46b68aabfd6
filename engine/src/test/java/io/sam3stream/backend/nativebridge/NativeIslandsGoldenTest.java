package io.sam3stream.backend.nativebridge;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import io.sam3stream.device.DeviceOptions;
import io.sam3stream.testing.TinyGolden;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The host implementation of the native islands, called through JNI, against upstream SAM3's outputs for the
 * tiny golden model: the ViT trunk against {@code vit.out}, the fusion encoder against each case's
 * {@code encoder.memory}, fed with the golden inputs of those stages.
 */
class NativeIslandsGoldenTest {

    private static NDManager manager;
    private static NativeIslands islands;

    @BeforeAll
    static void open() {
        manager = NDManager.newBaseManager();
        islands = NativeIslands.open(DeviceOptions.host(2), TinyGolden.config(), TinyGolden.weights());
    }

    @AfterAll
    static void close() {
        islands.close();
        manager.close();
    }

    @Test
    void backboneMatchesUpstreamTrunkOutput() {
        NDArray image = TinyGolden.array(manager, TinyGolden.inputs().get("image.preprocessed"));

        TinyGolden.assertStage("vit.out", islands.backbone(image));
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void fusionEncoderMatchesUpstreamMemory(String prompt) {
        NDArray memory = islands.fusionEncoder(imageFeatures(), imagePositions(), promptTokens(prompt),
                promptMask(prompt));

        TinyGolden.assertStage(prompt + ".encoder.memory", memory.transpose(1, 0, 2));
    }

    @Test
    void promptsBatchedOverOneSharedFeatureMapMatchTheirSingleRuns() {
        NDArray prompts = NDArrays.concat(new NDList(promptTokens("p0"), promptTokens("p2")));
        NDArray masks = NDArrays.concat(new NDList(promptMask("p0"), promptMask("p2")));

        NDArray memory = islands.fusionEncoder(imageFeatures(), imagePositions(), prompts, masks);

        TinyGolden.assertStage("p0.encoder.memory", memory.get("0:1").transpose(1, 0, 2));
        TinyGolden.assertStage("p2.encoder.memory", memory.get("1:2").transpose(1, 0, 2));
    }

    @Test
    void describesTheImplementationServingTheIslands() {
        assertTrue(islands.describe().startsWith("host: fp32 on 2 threads"), islands.describe());
    }

    /** The 1x neck level (1, d, G, G) flattened row-major to (1, G*G, d), as the encoder's input. */
    private static NDArray imageFeatures() {
        NDArray fpn = TinyGolden.output(manager, "neck.fpn2");
        long[] s = fpn.getShape().getShape();
        return fpn.reshape(1, s[1], s[2] * s[3]).transpose(0, 2, 1);
    }

    /** That level's sine position encoding, flattened the same way to (G*G, d). */
    private static NDArray imagePositions() {
        NDArray pos = TinyGolden.output(manager, "neck.pos2");
        long[] s = pos.getShape().getShape();
        return pos.reshape(s[1], s[2] * s[3]).transpose();
    }

    /** The case's prompt tokens, sequence-first (P, 1, d) upstream, batch-first (1, P, d) here. */
    private static NDArray promptTokens(String prompt) {
        return TinyGolden.output(manager, prompt + ".prompt.feats").transpose(1, 0, 2);
    }

    private static NDArray promptMask(String prompt) {
        return TinyGolden.booleans(manager, TinyGolden.outputs().get(prompt + ".prompt.mask"));
    }
}
