package io.sam3stream.engine;

import static io.sam3stream.engine.CpuKinds.SAPPHIRE_RAPIDS;
import static io.sam3stream.engine.CpuKinds.ZEN2;
import static io.sam3stream.engine.CpuKinds.ZEN4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Settings;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.nn.Precision;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code SAM3_PRECISION} resolved against CPUs of every kind, whichever CPU runs the test. */
class PrecisionChoiceTest {

    @Test
    void autoIsFp32WithoutBfloat16Instructions() {
        PrecisionChoice choice = PrecisionChoice.resolve("auto", ZEN2);
        assertEquals(Precision.FP32, choice.precision());
        assertTrue(choice.reason().contains("neither amx_bf16 nor avx512_bf16"), choice.reason());
    }

    @Test
    void autoIsBf16WithFp32AttentionOnAvx512Bf16() {
        PrecisionChoice choice = PrecisionChoice.resolve("auto", ZEN4);
        assertEquals(Precision.BF16_LINEAR, choice.precision());
        // the label names the attention this host runs in that mode (NativeBf16AttentionTest)
        assertTrue(choice.describe().startsWith(Precision.BF16_LINEAR.label() + ": "), choice.describe());
    }

    @Test
    void autoIsBf16ThroughoutOnAmx() {
        assertEquals(Precision.BF16, PrecisionChoice.resolve("auto", SAPPHIRE_RAPIDS).precision());
        // amx_bf16 without the tile state the kernel needs is not AMX
        assertEquals(Precision.BF16_LINEAR, PrecisionChoice.resolve("auto",
                CpuFeatures.of("unknown", "odd", "avx512_bf16 amx_bf16")).precision());
    }

    @Test
    void autoKeepsASmallModelInFp32EvenWithAmx() {
        PrecisionChoice demo = PrecisionChoice.resolve("auto", SAPPHIRE_RAPIDS, Sam3Config.demo());
        assertEquals(Precision.FP32, demo.precision());
        assertTrue(demo.reason().contains("amx_bf16") && demo.reason().contains("model is small"), demo.reason());
        assertEquals(Precision.BF16, PrecisionChoice.resolve("auto", SAPPHIRE_RAPIDS, Sam3Config.fullSize())
                .precision());
        assertEquals(Precision.BF16_LINEAR, PrecisionChoice.resolve("auto", ZEN4, Sam3Config.fullSize())
                .precision());
        // an explicit bf16 is obeyed for any model
        assertEquals(Precision.BF16, PrecisionChoice.resolve("bf16", SAPPHIRE_RAPIDS, Sam3Config.demo())
                .precision());
    }

    @Test
    void explicitSettingsAreObeyedOnEveryCpu() {
        for (CpuFeatures cpu : new CpuFeatures[] {ZEN2, ZEN4, SAPPHIRE_RAPIDS}) {
            assertEquals(Precision.FP32, PrecisionChoice.resolve("fp32", cpu).precision());
            assertTrue(PrecisionChoice.resolve("bf16", cpu).precision().bf16Linear());
        }
        assertTrue(PrecisionChoice.resolve("bf16", ZEN2).reason().contains("slower"),
                "a bf16 that will be slow says so");
    }

    @Test
    void theSettingIsReadCaseInsensitivelyAndCheckedAgainstItsValues() {
        Sam3Config model = Sam3Config.fullSize();
        assertEquals(Precision.FP32,
                PrecisionChoice.of(Settings.from(Map.of("SAM3_PRECISION", "FP32")), model).precision());
        assertThrows(ConfigException.class,
                () -> PrecisionChoice.of(Settings.from(Map.of("SAM3_PRECISION", "fp16")), model));
    }

    @Test
    void theHostSummaryNamesTheDecisiveFlags() {
        String summary = CpuFeatures.host().summary();
        assertTrue(summary.contains("avx512_bf16") && summary.contains("amx_bf16"), summary);
    }
}
