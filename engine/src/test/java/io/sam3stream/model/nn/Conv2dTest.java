package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A float32 {@link Conv2d} calls oneDNN itself; it must compute what libtorch's own {@code conv2d} does in every size
 * class that libtorch would have sent elsewhere: small maps, 1×1 kernels on one thread, large maps, channels-last
 * views, with and without the bias.
 */
class Conv2dTest {

    @ParameterizedTest(name = "{0}→{1} channels, {2}×{2} kernel, {3}×{3} map, channels-last {4}, one thread {5}")
    @CsvSource({
        "64, 32, 1, 12, true, true",   // a 1x1 kernel on one thread: libtorch's im2col path
        "32, 32, 3, 12, true, true",   // 4608 values: im2col
        "32, 32, 3, 24, false, true",  // 18432 values: im2col
        "32, 32, 3, 48, true, false",  // 73728 values: libtorch's oneDNN path too
        "8, 16, 3, 5, false, false",   // a map smaller than the kernel's reach in places
    })
    void aFloat32LayerComputesWhatLibtorchsConvolutionDoes(int in, int out, int kernel, int size,
            boolean channelsLast, boolean oneThread) {
        try (NDManager m = NDManager.newBaseManager();
                ComputeOptions.Scope threads = oneThread ? SmallOperatorThreads.enter() : null) {
            NDArray weight = m.randomNormal(new Shape(out, in, kernel, kernel)).div(Math.sqrt(in * kernel * kernel));
            NDArray bias = m.randomNormal(new Shape(out));
            NDArray x = channelsLast
                    ? m.randomNormal(new Shape(1, size, size, in)).transpose(0, 3, 1, 2)
                    : m.randomNormal(new Shape(1, in, size, size));
            Conv2d layer = new Conv2d(weight, bias, false);
            Shape padding = new Shape(kernel / 2, kernel / 2);
            NDArray expected = ai.djl.nn.convolutional.Conv2d.conv2d(x, weight, bias, new Shape(1, 1), padding,
                    new Shape(1, 1), 1).singletonOrThrow();
            NDArray expectedUnbiased = ai.djl.nn.convolutional.Conv2d.conv2d(x, weight, null, new Shape(1, 1),
                    padding, new Shape(1, 1), 1).singletonOrThrow();
            assertClose(expected, layer.forward(x));
            assertClose(expectedUnbiased, layer.forwardWithoutBias(x));
        }
    }

    private static void assertClose(NDArray expected, NDArray actual) {
        assertArrayEquals(expected.getShape().getShape(), actual.getShape().getShape());
        float bound = 1e-5f * (1f + expected.abs().max().getFloat());
        float worst = expected.sub(actual).abs().max().getFloat();
        assertTrue(worst <= bound, "max difference " + worst + " over " + bound);
    }
}
