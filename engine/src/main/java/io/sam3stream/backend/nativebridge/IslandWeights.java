package io.sam3stream.backend.nativebridge;

import io.sam3stream.device.DeviceTensor;
import io.sam3stream.device.ElementType;
import io.sam3stream.device.IslandDevice;
import io.sam3stream.device.RequiredWeight;
import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.WeightSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Hands the islands' weights from a {@link WeightSource} to the device, once, in the device's own order. */
final class IslandWeights {

    private IslandWeights() {}

    /**
     * Uploads every weight the device asks for and commits them.
     *
     * @throws CheckpointException if the source lacks a weight or holds it in a type the islands cannot take
     */
    static void upload(IslandDevice device, WeightSource source) {
        for (RequiredWeight required : device.requiredWeights()) {
            RawTensor tensor = source.get(required.name());
            device.uploadWeight(required.name(), DeviceTensor.of(elementType(required.name(), tensor), tensor.shape(),
                    direct(tensor.data())));
        }
        device.commitWeights();
    }

    private static ElementType elementType(String name, RawTensor tensor) {
        return switch (tensor.dtype()) {
            case F32 -> ElementType.F32;
            case BF16 -> ElementType.BF16;
            case F16 -> ElementType.F16;
            default -> throw new CheckpointException(name + " is stored as " + tensor.dtype()
                    + "; the device islands take F32, BF16 or F16 weights");
        };
    }

    /** Mapped checkpoint tensors are direct already and cross without a copy; heap tensors are copied once. */
    private static ByteBuffer direct(ByteBuffer data) {
        if (data.isDirect()) {
            return data;
        }
        ByteBuffer copy = ByteBuffer.allocateDirect(data.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        copy.put(data.duplicate()).flip();
        return copy;
    }
}
