package io.sam3stream.backend.nativebridge;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.device.DeviceException;
import io.sam3stream.device.DeviceExecutor;
import io.sam3stream.device.DeviceOptions;
import io.sam3stream.device.DeviceStatus;
import io.sam3stream.device.DeviceTensor;
import io.sam3stream.device.EncoderTrace;
import io.sam3stream.device.IslandDevice;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.weights.WeightSource;

/**
 * SAM3's two device islands, the ViT backbone (docs/MODEL.md §3) and the fusion encoder (§7), run through the
 * native bridge (the host C++ implementation, or ttnn on a p150a when {@code SAM3_NATIVE_LIB} names that
 * library) with DJL arrays in and out. The weights are uploaded once when the islands open; all device work
 * runs on the device's own thread, and any number of threads may call in.
 */
public final class NativeIslands implements AutoCloseable {

    private final DeviceExecutor device;
    /** Refreshed on the device thread after every run, so reading it never waits for the device. */
    private volatile String description;
    /** Refreshed with the description. */
    private volatile EncoderTrace encoderTrace;

    private NativeIslands(DeviceExecutor device, String description, EncoderTrace encoderTrace) {
        this.device = device;
        this.description = description;
        this.encoderTrace = encoderTrace;
    }

    /**
     * Opens the device, uploads the islands' weights from {@code weights} (canonical names) and commits them.
     *
     * @throws DeviceException if the device cannot be opened or rejects a weight
     * @throws io.sam3stream.weights.CheckpointException if {@code weights} lacks one
     */
    public static NativeIslands open(DeviceOptions options, Sam3Config config, WeightSource weights) {
        DeviceExecutor device = DeviceExecutor.open(options, IslandConfigs.backbone(config.vit()),
                IslandConfigs.encoder(config));
        try {
            String description = device.call(d -> {
                IslandWeights.upload(d, weights);
                return d.describe();
            });
            return new NativeIslands(device, description, device.call(IslandDevice::encoderTrace));
        } catch (RuntimeException | Error e) {
            device.close();
            throw e;
        }
    }

    /**
     * The ViT trunk.
     *
     * @param image preprocessed image, float32 (1, 3, R, R)
     * @return the trunk features, float32 (1, C, G, G), in the image's manager
     */
    public NDArray backbone(NDArray image) {
        DeviceTensor in = tensor(image);
        DeviceTensor out = device.call(d -> afterRun(d, d.runBackbone(in)));
        return array(image.getManager(), out);
    }

    /**
     * The fusion encoder over B prompts of one image, batch-first.
     *
     * @param imageFeatures float32 (1 or B, HW, d): the 1x neck level flattened row-major ({@code flatten(2)
     *     .transpose(1, 2)}); a batch of 1 serves every prompt
     * @param pos float32 (HW, d): that level's sine position encoding, flattened the same way
     * @param prompt float32 (B, P, d): the prompt tokens, batch-first (upstream's prompt is sequence-first)
     * @param promptMask boolean (B, P): true = padding
     * @return memory, float32 (B, HW, d), in {@code imageFeatures}' manager (upstream's is sequence-first)
     */
    public NDArray fusionEncoder(NDArray imageFeatures, NDArray pos, NDArray prompt, NDArray promptMask) {
        DeviceTensor features = tensor(imageFeatures);
        DeviceTensor position = tensor(pos);
        DeviceTensor tokens = tensor(prompt);
        DeviceTensor mask = tensor(promptMask);
        DeviceTensor memory = device.call(d -> afterRun(d, d.runFusionEncoder(features, position, tokens, mask)));
        return array(imageFeatures.getManager(), memory);
    }

    /**
     * The implementation and device serving the islands as the native library last described them, e.g. whether
     * the ttnn traces have been captured (which happens on the first runs).
     */
    public String describe() {
        return description;
    }

    /** How the fusion encoder's runs so far went through device traces, as of the latest run. */
    public EncoderTrace encoderTrace() {
        return encoderTrace;
    }

    /** Closes the device (after work already queued) and its thread. */
    @Override
    public void close() {
        device.close();
    }

    /** Records the description and trace counters a run may have changed (traces are captured by the first runs). */
    private <T> T afterRun(IslandDevice d, T result) {
        description = d.describe();
        encoderTrace = d.encoderTrace();
        return result;
    }

    /**
     * A copy of the array in a direct buffer. (DJL could expose its own memory, but only for contiguous arrays;
     * for others it would leave a contiguous copy in the caller's manager until that closes.)
     */
    private static DeviceTensor tensor(NDArray array) {
        long[] shape = array.getShape().getShape();
        return switch (array.getDataType()) {
            case FLOAT32 -> DeviceTensor.ofFloats(array.toFloatArray(), shape);
            case BOOLEAN -> DeviceTensor.ofBooleans(array.toBooleanArray(), shape);
            default -> throw new DeviceException(DeviceStatus.INVALID_ARGUMENT,
                    "the islands take float32 arrays and boolean masks, got " + array.getDataType());
        };
    }

    /** Wraps a result's direct buffer in an array without copying. */
    private static NDArray array(NDManager manager, DeviceTensor tensor) {
        return manager.create(tensor.data(), new Shape(tensor.shape()), DataType.FLOAT32);
    }
}
