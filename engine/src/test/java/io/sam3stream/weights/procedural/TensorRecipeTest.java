package io.sam3stream.weights.procedural;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.FloatBuffer;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The worked examples of golden/sam3-full-procedural, section 1.4. */
class TensorRecipeTest {

    private static final String QKV = "backbone.vision_backbone.trunk.blocks.3.attn.qkv.weight";
    private static final String NORM1 = "backbone.vision_backbone.trunk.blocks.0.norm1.weight";
    private static final String CROSS_OUT = "transformer.decoder.layers.3.cross_attn.out_proj.weight";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        QKV + "       | 3072 1024 | R5 | ab5ec5b95a32cd08 | 0x1.bb67ae8584caap-5 | 0.0",
        NORM1 + "     | 1024      | R2 | c99cb2205bc5d043 | 0x1.999999999999ap-4 | 1.0",
        CROSS_OUT + " | 256 256   | R5 | 3dfe5a781e822b29 | 0x1.62b9586ad0a22p-7 | 0.0",
    })
    void recipeOfTheWorkedExamples(String name, String shape, String rule, String seedHex, String scaleHex,
            double offset) {
        TensorRecipe recipe = TensorRecipe.of(name, shape(shape));
        assertEquals(rule, recipe.rule().id());
        assertEquals(Long.parseUnsignedLong(seedHex, 16), recipe.seed());
        assertEquals(Double.parseDouble(scaleHex), recipe.scale());
        assertEquals(offset, recipe.offset());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        QKV + "       | 3072 1024 | 0 | d9e322b27118c79b | 0.7022441264436505   | 3d1bb075 | 0.03801007941365242",
        QKV + "       | 3072 1024 | 1 | d1fdb653bf09f0a4 | 0.6405551823537077   | 3d0e033f | 0.03467106446623802",
        QKV + "       | 3072 1024 | 2 | de978bbd92f06bc8 | 0.7389998126653865   | 3d23d68e | 0.03999953716993332",
        QKV + "       | 3072 1024 | 3 | cd3f6e81e3180a09 | 0.603498280927113    | 3d05cc0d | 0.032665301114320755",
        NORM1 + "     | 1024      | 0 | 5f5fa2a723295fde | -0.2548939403438244  | 3f797987 | 0.9745106101036072",
        NORM1 + "     | 1024      | 1 | aa8512c194d9603b | 0.33218607380122034  | 3f844082 | 1.0332186222076416",
        NORM1 + "     | 1024      | 2 | b5d88967c3149992 | 0.4206706768656303   | 3f856274 | 1.042067050933838",
        NORM1 + "     | 1024      | 3 | eea8c4c5404a93b0 | 0.8645254099979707   | 3f8b10e0 | 1.0864524841308594",
        CROSS_OUT + " | 256 256   | 0 | f8b078cb8fd8c152 | 0.942885493655643    | 3c273b68 | 0.010207034647464752",
        CROSS_OUT + " | 256 256   | 1 | db4a6616bc56ef0a | 0.71320797071592     | 3bfcfdf3 | 0.0077207027934491634",
        CROSS_OUT + " | 256 256   | 2 | 041b04b3425ed8d0 | -0.9679254650793692  | bc2bac57 | -0.01047810073941946",
        CROSS_OUT + " | 256 256   | 3 | 3c76f05c02d16369 | -0.5276202727057937  | bbbb28da | -0.005711656995117664",
    })
    void firstElementsOfTheWorkedExamples(String name, String shape, int index, String streamHex, double uniform,
            String bitsHex, double value) {
        TensorRecipe recipe = TensorRecipe.of(name, shape(shape));
        long stream = SplitMix64.output(recipe.seed(), index);
        assertEquals(Long.parseUnsignedLong(streamHex, 16), stream, "u_i");
        assertEquals(uniform, TensorRecipe.uniform(stream), "v_i");

        FloatBuffer values = FloatBuffer.allocate(index + 1);
        recipe.fill(values, index, 1);
        assertEquals(Integer.parseUnsignedInt(bitsHex, 16), Float.floatToRawIntBits(values.get(index)), "bits");
        assertEquals(value, values.get(index), "value");
    }

    private static long[] shape(String dims) {
        return Arrays.stream(dims.trim().split(" +")).mapToLong(Long::parseLong).toArray();
    }
}
