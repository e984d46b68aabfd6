package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.testing.TinyGolden;
import org.junit.jupiter.api.Test;

class ConvolutionPrecisionTest {

    private static final String PIXEL_DECODER_CONV = "segmentation_head.pixel_decoder.conv_layers.0";

    @Test
    void convolutionsAreBf16InBf16AndInBf16LinearWhereTheKernelsAreNative() {
        assertFalse(Precision.FP32.bf16Convolutions());
        assertTrue(Precision.BF16.bf16Convolutions());
        // emulated bfloat16 convolutions would be slower than float32 ones, so BF16_LINEAR keeps them float32 there
        assertEquals(FusedOps.oneDnnMultipliesBf16(), Precision.BF16_LINEAR.bf16Convolutions());
    }

    @Test
    void aLayerHoldsItsParametersInTheFormatItConvolvesIn() {
        for (Precision precision : new Precision[] {Precision.FP32, Precision.BF16_LINEAR, Precision.BF16}) {
            try (NDManager m = NDManager.newBaseManager()) {
                Params root = Params.root(TinyGolden.weights(), m, precision);
                Conv2d conv = Conv2d.load(root.sub("segmentation_head.pixel_decoder"), "conv_layers.0");
                // DJL has no name for libtorch's bfloat16 and reports it as UNKNOWN (see FusedOps)
                DataType expected = precision.bf16Convolutions() ? DataType.UNKNOWN : DataType.FLOAT32;
                assertEquals(precision.bf16Convolutions(), conv.bf16(), precision.label());
                assertEquals(expected, conv.weight().getDataType(), PIXEL_DECODER_CONV + ".weight, " + precision);
                assertEquals(expected, conv.bias().getDataType(), PIXEL_DECODER_CONV + ".bias, " + precision);
            }
        }
    }

    @Test
    void theResultInTheLayersFormatHoldsTheValuesTheFloat32ResultWidens() {
        for (Precision precision : new Precision[] {Precision.FP32, Precision.BF16}) {
            try (NDManager m = NDManager.newBaseManager()) {
                Params root = Params.root(TinyGolden.weights(), m, precision);
                Conv2d conv = Conv2d.load(root.sub("segmentation_head.pixel_decoder"), "conv_layers.0");
                long channels = conv.weight().getShape().get(1);
                NDArray x = m.randomNormal(new Shape(1, channels, 12, 12));
                NDArray own = conv.forwardInLayerFormat(x);
                NDArray widened = conv.bf16() ? FusedOps.toFloat32(own) : own;
                assertEquals(conv.bf16() ? DataType.UNKNOWN : DataType.FLOAT32, own.getDataType(), precision.label());
                assertArrayEquals(conv.forward(x).toFloatArray(), widened.toFloatArray(), 0f, precision.label());
            }
        }
    }
}
