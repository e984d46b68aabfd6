package io.sam3stream.parity;

import static io.sam3stream.testing.SampledGoldenFile.i64;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sam3stream.testing.SampledGoldenFile;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampledReferenceTest {

    @TempDir
    Path dir;

    private static final TensorStatistics STATS = new TensorStatistics(0.5, 1.25, -2, 3);

    @Test
    void separatesSampledStagesFromWholeOnes() {
        float[] all = {0, 1, 2, 3, 4, 5};
        try (SafetensorsFile file = new SampledGoldenFile()
                .sampled("neck.fpn0", new long[] {1, 2, 3}, all, new long[] {4, 1}, STATS)
                .put("p0.decoder.hs_last", RawTensor.ofFloats(new float[] {7, 8}, 1, 2))
                .write(dir.resolve("outputs-sampled.safetensors"))) {
            SampledReference reference = SampledReference.of(file);

            assertEquals(Set.of("neck.fpn0"), reference.sampledStages().keySet());
            SampledStage stage = reference.sampledStages().get("neck.fpn0");
            assertArrayEquals(new long[] {1, 2, 3}, stage.shape());
            assertArrayEquals(new long[] {4, 1}, stage.indices());
            assertArrayEquals(new float[] {4, 1}, stage.values());
            assertEquals(STATS, stage.statistics());
            assertEquals(List.of("p0.decoder.hs_last"), List.copyOf(reference.wholeStages()));
            assertArrayEquals(new float[] {7, 8}, reference.whole("p0.decoder.hs_last").toFloats());
            assertArrayEquals(new long[] {4, 1}, reference.sampleIndices().get("neck.fpn0"));
        }
    }

    @Test
    void rejectsASampledStageWithoutItsStatistics() {
        try (SafetensorsFile file = new SampledGoldenFile()
                .put("vit.out:shape", i64(new long[] {2}, 1))
                .put("vit.out:idx", i64(new long[] {1}, 1))
                .put("vit.out:val", RawTensor.ofFloats(new float[] {1}, 1))
                .write(dir.resolve("outputs-sampled.safetensors"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SampledReference.of(file));
            assertEquals("sampled stage vit.out has no :stats entry", e.getMessage());
        }
    }

    @Test
    void rejectsAnUnknownSampledEntry() {
        try (SafetensorsFile file = new SampledGoldenFile()
                .put("vit.out:median", RawTensor.ofFloats(new float[] {1}, 1))
                .write(dir.resolve("outputs-sampled.safetensors"))) {
            assertThrows(IllegalArgumentException.class, () -> SampledReference.of(file));
        }
    }
}
