package io.sam3stream.device;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An open device running SAM3's two accelerator islands, the ViT backbone and the fusion encoder, behind an
 * opaque native handle. Life cycle: {@link #open}, {@link #uploadWeight} for each of {@link #requiredWeights},
 * {@link #commitWeights}, then any number of {@link #runBackbone} / {@link #runFusionEncoder}, and
 * {@link #close}.
 *
 * <p>Calls on one device are serialised by the native library, but the ttnn implementation requires them all
 * to come from one thread; {@link DeviceExecutor} provides that thread. Every failure, including a call after
 * {@link #close} and a second close, is a {@link DeviceException}.
 */
public final class IslandDevice implements AutoCloseable {

    private final long handle;
    private final BackboneConfig backbone;
    private final FusionEncoderConfig encoder;

    private IslandDevice(long handle, BackboneConfig backbone, FusionEncoderConfig encoder) {
        this.handle = handle;
        this.backbone = backbone;
        this.encoder = encoder;
    }

    /** Loads the native library if needed and opens the device with the islands' sizes. */
    public static IslandDevice open(DeviceOptions options, BackboneConfig backbone, FusionEncoderConfig encoder) {
        NativeLibrary.load();
        long handle = NativeApi.open(options.deviceId(), options.l1SmallSize(), options.traceRegionSize(),
                options.numThreads(), options.fused(), backbone.imageSize(), backbone.pretrainImageSize(),
                backbone.patchSize(), backbone.embedDim(), backbone.depth(), backbone.numHeads(),
                backbone.mlpHidden(), backbone.windowSize(), backbone.globalBlocks(), encoder.dModel(),
                encoder.layers(), encoder.heads(), encoder.dimFeedforward());
        return new IslandDevice(handle, backbone, encoder);
    }

    public FusionEncoderConfig encoderConfig() {
        return encoder;
    }

    /** The weights {@link #commitWeights} requires, in upstream state-dict order. */
    public List<RequiredWeight> requiredWeights() {
        int count = NativeApi.requiredWeightCount(handle);
        List<RequiredWeight> weights = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            weights.add(new RequiredWeight(NativeApi.requiredWeightName(handle, i),
                    NativeApi.requiredWeightShape(handle, i)));
        }
        return Collections.unmodifiableList(weights);
    }

    /**
     * Copies one weight (F32, BF16 or F16, its upstream shape) to the device. The buffer may be reused once this
     * returns.
     */
    public void uploadWeight(String name, DeviceTensor weight) {
        NativeApi.uploadWeight(handle, name, weight.buffer(), weight.type().code(), weight.shape());
    }

    /** Checks that every required weight arrived and prepares them for running. */
    public void commitWeights() {
        NativeApi.commitWeights(handle);
    }

    /**
     * The ViT trunk.
     *
     * @param image F32 (1, 3, R, R), preprocessed as upstream's Sam3Processor does
     * @return F32 (1, C, G, G), channels first, as upstream {@code ViT.forward} returns it
     */
    public DeviceTensor runBackbone(DeviceTensor image) {
        DeviceTensor out = DeviceTensor.allocate(ElementType.F32, 1, backbone.embedDim(), backbone.grid(),
                backbone.grid());
        NativeApi.runBackbone(handle, image.buffer(), image.type().code(), image.shape(), out.buffer(),
                out.type().code(), out.shape());
        return out;
    }

    /**
     * The fusion encoder over B prompts of one image, batch-first.
     *
     * @param imageFeatures F32 (1 or B, HW, d): the 1x neck level flattened row-major; a batch of 1 is shared by
     *     every prompt
     * @param pos F32 (HW, d): that level's sine position encoding, flattened the same way
     * @param prompt F32 (B, P, d): text tokens, then geometry tokens
     * @param promptMask U8 (B, P): 1 = padding, ignored by the cross-attention; each prompt needs a valid token
     * @return memory, F32 (B, HW, d) (upstream returns it sequence-first)
     */
    public DeviceTensor runFusionEncoder(DeviceTensor imageFeatures, DeviceTensor pos, DeviceTensor prompt,
            DeviceTensor promptMask) {
        long[] promptShape = prompt.shape();
        long[] featureShape = imageFeatures.shape();
        long batch = promptShape.length == 3 ? promptShape[0] : 0;
        long tokens = featureShape.length == 3 ? featureShape[1] : 0;
        DeviceTensor memory = DeviceTensor.allocate(ElementType.F32, batch, tokens, encoder.dModel());
        NativeApi.runFusionEncoder(handle, imageFeatures.buffer(), imageFeatures.type().code(), featureShape,
                pos.buffer(), pos.type().code(), pos.shape(), prompt.buffer(), prompt.type().code(), promptShape,
                promptMask.buffer(), promptMask.type().code(), promptMask.shape(), memory.buffer(),
                memory.type().code(), memory.shape());
        return memory;
    }

    /** One line naming the implementation and its state, for logs and {@code /info}. */
    public String describe() {
        return NativeApi.describe(handle);
    }

    /** How the fusion encoder's runs so far went through metal traces. */
    public EncoderTrace encoderTrace() {
        long[] s = NativeApi.encoderTrace(handle);
        return new EncoderTrace(s[0] != 0, s[1] != 0, s[2], s[3]);
    }

    /**
     * Releases the device and everything on it.
     *
     * @throws DeviceException ({@link DeviceStatus#INVALID_HANDLE}) if it was closed already
     */
    @Override
    public void close() {
        NativeApi.close(handle);
    }
}
