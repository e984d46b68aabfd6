package io.sam3stream.device;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Islands small enough to reason about by hand: a 28 x 28 image in 14-pixel patches (a 2 x 2 grid, 1 x 1
 * windows), width 8, blocks 0 (windowed) and 1 (global); an encoder of width 8 with one layer.
 *
 * <p>{@link #uploadZeroNetwork} loads weights that make the output computable by hand: every matrix is zero,
 * so attention and MLP inputs vanish and only biases travel through the residual stream.
 */
final class TinyIslands {

    static final BackboneConfig BACKBONE = new BackboneConfig(28, 28, 14, 8, 2, 2, 16, 1, new int[] {1});
    static final FusionEncoderConfig ENCODER = new FusionEncoderConfig(8, 1, 2, 16);
    static final int WIDTH = 8;

    private TinyIslands() {}

    static IslandDevice open() {
        return IslandDevice.open(DeviceOptions.host(2), BACKBONE, ENCODER);
    }

    /** Bias value of channel c in the zero network: a different small ramp per bias kind. */
    static float bias(String kind, int c) {
        return switch (kind) {
            case "ln_pre" -> 0.5f + 0.25f * c;
            case "proj" -> 1.0f - 0.125f * c;
            case "fc2" -> 0.0625f * c;
            case "out_proj" -> 0.25f;
            case "cross_out" -> -0.5f + 0.125f * c;
            case "linear2" -> 0.03125f * c;
            default -> 0.0f;
        };
    }

    /** Uploads the zero network (with its ramps as BF16, which represents them exactly) and commits. */
    static void uploadZeroNetwork(IslandDevice device) {
        for (RequiredWeight w : device.requiredWeights()) {
            String kind = biasKind(w.name());
            if (kind.isEmpty()) {
                device.uploadWeight(w.name(), DeviceTensor.allocate(ElementType.F32, w.shape()));
            } else {
                device.uploadWeight(w.name(), bf16Ramp(kind, w.shape()));
            }
        }
        device.commitWeights();
    }

    /** The trunk output of the zero network at channel c: ln_pre's beta plus every block's two biases. */
    static float zeroNetworkTrunk(int c) {
        return bias("ln_pre", c) + 2 * (bias("proj", c) + bias("fc2", c));
    }

    /** The encoder output of the zero network: the input plus the layer's three output biases. */
    static float zeroNetworkMemory(float input, int c) {
        return input + bias("out_proj", c) + bias("cross_out", c) + bias("linear2", c);
    }

    static String biasKind(String name) {
        if (name.endsWith("trunk.ln_pre.bias")) {
            return "ln_pre";
        } else if (name.endsWith("attn.proj.bias")) {
            return "proj";
        } else if (name.endsWith("mlp.fc2.bias")) {
            return "fc2";
        } else if (name.endsWith("self_attn.out_proj.bias")) {
            return "out_proj";
        } else if (name.endsWith("cross_attn_image.out_proj.bias")) {
            return "cross_out";
        } else if (name.endsWith("linear2.bias")) {
            return "linear2";
        }
        return "";
    }

    private static DeviceTensor bf16Ramp(String kind, long[] shape) {
        ByteBuffer data = ByteBuffer.allocateDirect((int) shape[0] * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int c = 0; c < shape[0]; c++) {
            data.putShort((short) (Float.floatToIntBits(bias(kind, c)) >>> 16));
        }
        return DeviceTensor.of(ElementType.BF16, shape, data.flip());
    }

    static DeviceTensor image() {
        return DeviceTensor.allocate(ElementType.F32, 1, 3, 28, 28);
    }

    /** Prompts of P tokens, all valid except the first of prompt 0. */
    static DeviceTensor mask(int batch, int tokens) {
        boolean[] flags = new boolean[batch * tokens];
        flags[0] = true;
        return DeviceTensor.ofBooleans(flags, batch, tokens);
    }
}
