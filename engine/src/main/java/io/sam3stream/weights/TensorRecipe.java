package io.sam3stream.weights;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/** How one canonical tensor is produced from the tensors a checkpoint file stores. */
sealed interface TensorRecipe {

    /** Builds the tensor from the file's tensors (under their stored names). */
    RawTensor build(WeightSource stored);

    /** A stored tensor taken as it is. */
    record Stored(String name) implements TensorRecipe {
        @Override
        public RawTensor build(WeightSource stored) {
            return stored.get(name);
        }
    }

    /** The transpose of a stored matrix. */
    record Transposed(String name) implements TensorRecipe {
        @Override
        public RawTensor build(WeightSource stored) {
            RawTensor t = stored.get(name);
            long[] shape = t.shape();
            if (shape.length != 2) {
                throw new CheckpointException("cannot transpose " + name + " of shape " + Arrays.toString(shape));
            }
            ByteBuffer data = StridedView.transposed(shape[0], shape[1]).toContiguous(t.data(), t.dtype().byteSize());
            return new RawTensor(t.dtype(), new long[] {shape[1], shape[0]}, data);
        }
    }

    /**
     * Stored tensors of equal dtype and trailing shape stacked along dimension 0, e.g. separate q, k and v
     * projections packed back into one {@code in_proj_weight} (rows [0:d) = q, [d:2d) = k, [2d:3d) = v).
     */
    record RowsConcatenated(List<String> names) implements TensorRecipe {
        public RowsConcatenated {
            names = List.copyOf(names);
        }

        @Override
        public RawTensor build(WeightSource stored) {
            List<RawTensor> parts = names.stream().map(stored::get).toList();
            RawTensor first = parts.get(0);
            long[] shape = first.shape();
            long rows = 0;
            for (int i = 0; i < parts.size(); i++) {
                RawTensor part = parts.get(i);
                long[] partShape = part.shape();
                if (part.dtype() != first.dtype() || partShape.length == 0 || partShape.length != shape.length
                        || !Arrays.equals(partShape, 1, partShape.length, shape, 1, shape.length)) {
                    throw new CheckpointException("cannot stack " + names.get(i) + " (" + part.dtype()
                            + Arrays.toString(partShape) + ") onto " + names.get(0) + " (" + first.dtype()
                            + Arrays.toString(shape) + ")");
                }
                rows += partShape[0];
            }
            shape[0] = rows;
            ByteBuffer data = ByteBuffer.allocate(Math.toIntExact(RawTensor.elementCount(shape)
                    * first.dtype().byteSize())).order(ByteOrder.LITTLE_ENDIAN);
            parts.forEach(part -> data.put(part.data()));
            return new RawTensor(first.dtype(), shape, data.flip());
        }
    }
}
