package io.sam3stream.weights.procedural;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Generates all 840.5 M values of the SAM3 image model and compares every tensor's bit checksums, and their
 * overall digest, with upstream's. Bit-exact checksums prove the whole recipe: rules, scales, seeds and rounding.
 */
class AllParameterChecksumsTest {

    @Test
    void everyTensorIsBitIdenticalToUpstream() {
        ParamChecksums checksums = ParamChecksums.load();
        long digest = 0;
        try (ProceduralWeights weights = ProceduralWeights.sam3Image()) {
            for (ParamChecksums.Entry expected : checksums.perTensor()) {
                ParamChecksums.BitChecksum actual = ParamChecksums.BitChecksum.of(weights.get(expected.name()));
                assertEquals(expected.bits(), actual, expected.name());
                digest += actual.weightedSum();
            }
        }
        assertEquals(checksums.digest(), digest, "sum of all weighted bit checksums");
    }
}
