package io.sam3stream.device;

import java.nio.ByteBuffer;

/**
 * The JNI entry points over the C API {@code sam3native.h}, one per function. Every method throws
 * {@link DeviceException} on failure. Tensors cross as (direct buffer, dtype code, shape); buffers are passed
 * whole, so callers hand over slices whose capacity is the tensor's size.
 */
final class NativeApi {

    private NativeApi() {}

    static native int apiVersion();

    static native String implementation();

    static native long open(int deviceId, long l1SmallSize, long traceRegionSize, int numThreads, boolean fused,
            int imageSize, int pretrainImageSize, int patchSize, int embedDim, int depth, int numHeads, int mlpHidden,
            int windowSize, int[] globalBlocks, int dModel, int encoderLayers, int encoderHeads, int dimFeedforward);

    static native int requiredWeightCount(long handle);

    static native String requiredWeightName(long handle, int index);

    static native long[] requiredWeightShape(long handle, int index);

    static native void uploadWeight(long handle, String name, ByteBuffer data, int dtype, long[] shape);

    static native void commitWeights(long handle);

    static native void runBackbone(long handle, ByteBuffer image, int imageType, long[] imageShape,
            ByteBuffer trunkOut, int trunkOutType, long[] trunkOutShape);

    static native void runFusionEncoder(long handle, ByteBuffer features, int featuresType, long[] featuresShape,
            ByteBuffer pos, int posType, long[] posShape, ByteBuffer prompt, int promptType, long[] promptShape,
            ByteBuffer mask, int maskType, long[] maskShape, ByteBuffer memory, int memoryType, long[] memoryShape);

    static native String describe(long handle);

    /** {expected, captured, traced runs, eager runs} of {@code sam3n_encoder_trace_status}. */
    static native long[] encoderTrace(long handle);

    static native void close(long handle);
}
