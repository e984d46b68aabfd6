package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;

/**
 * A linear layer through fbgemm's dynamic int8 product: the weight quantized once to int8 (one scale for the
 * matrix) and packed, the activations quantized to uint8 per call from their own range, int32 accumulation and a
 * float32 result. The weight keeps 7 bits (-64..63, symmetric): without VNNI, fbgemm's AVX2 kernel adds each pair
 * of uint8 × int8 products in 16 bits with saturation, which full-range weights overflow (on a Zen 1, errors of up
 * to 0.27 in a product whose rounding accounts for a few hundredths). PyTorch's dynamic quantization halves the
 * activations' range for the same reason; this operator quantizes the activations itself, so the weight gives the
 * bit. {@code ./sam3 bench precision} measures it against float32 to decide whether an int8 mode earns
 * its place on CPUs without bfloat16 instructions; the engine does not serve it ({@code docs/PERFORMANCE.md},
 * "int8"). A per-channel scale would change only the epilogue that rescales each output column, not the product
 * whose speed is measured.
 *
 * <p>fbgemm picks its kernel from the CPU's flags; {@code FBGEMM_ENABLE_INSTRUCTIONS=AVX2} holds it to the AVX2
 * one, which is how an AVX512 machine measures what an AVX2-only CPU would run.
 */
public final class Int8Linear implements AutoCloseable {

    /** The compiled module, built on first use and kept for the life of the process. */
    private static final class Module {
        static final ScriptModule INSTANCE = ScriptModule.compile("Int8Linear");
    }

    /** The quantized weight, its packed form, column offsets, scale and zero point, in that order. */
    private final NDList quantized;
    private final NDArray bias;

    private Int8Linear(NDList quantized, NDArray bias) {
        this.quantized = quantized;
        this.bias = bias;
    }

    /**
     * Quantizes and packs a float32 weight.
     *
     * @param weight (out, in) float32, not modified
     * @param bias   (out) float32, kept (not copied) for the life of the layer
     */
    public static Int8Linear quantize(NDArray weight, NDArray bias) {
        return new Int8Linear(Module.INSTANCE.runTensors("quantize", weight.getManager(),
                new ScriptCall().tensor(weight)), bias);
    }

    /**
     * x·Wᵀ + b with int8 operands.
     *
     * @param x (N, in) float32
     * @return (N, out) float32, in x's manager
     */
    public NDArray forward(NDArray x) {
        ScriptCall call = new ScriptCall().tensor(x);
        for (NDArray part : quantized) {
            call.tensor(part);
        }
        return Module.INSTANCE.runTensors("linear", x.getManager(), call.tensor(bias)).singletonOrThrow();
    }

    /** Releases the quantized weight; the bias stays its owner's. */
    @Override
    public void close() {
        quantized.close();
    }
}
