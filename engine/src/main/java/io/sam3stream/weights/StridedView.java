package io.sam3stream.weights;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A strided view of a flat storage, as PyTorch describes a tensor: element {@code (i0, i1, ...)} lives at storage
 * index {@code offset + i0*stride[0] + i1*stride[1] + ...}. Turns such a view into C-order bytes.
 *
 * @param offset storage index of element (0, ..., 0), in elements
 * @param size the shape
 * @param stride the step in elements along each dimension
 */
record StridedView(long offset, long[] size, long[] stride) {

    StridedView {
        if (size.length != stride.length) {
            throw new CheckpointException("tensor has " + size.length + " sizes but " + stride.length + " strides");
        }
        if (offset < 0 || Arrays.stream(size).anyMatch(d -> d < 0) || Arrays.stream(stride).anyMatch(s -> s < 0)) {
            throw new CheckpointException("tensor view has a negative offset, size or stride: offset " + offset
                    + ", size " + Arrays.toString(size) + ", stride " + Arrays.toString(stride));
        }
        size = size.clone();
        stride = stride.clone();
    }

    /** The transposed view of a C-order matrix of {@code rows × columns} elements. */
    static StridedView transposed(long rows, long columns) {
        return new StridedView(0, new long[] {columns, rows}, new long[] {1, columns});
    }

    /** Number of elements. */
    long elementCount() {
        return RawTensor.elementCount(size);
    }

    /** One past the highest storage index the view touches: the storage elements it needs. */
    long storageExtent() {
        if (elementCount() == 0) {
            return 0;
        }
        long last = offset;
        for (int d = 0; d < size.length; d++) {
            last = Math.addExact(last, Math.multiplyExact(size[d] - 1, stride[d]));
        }
        return last + 1;
    }

    /** True if the elements lie in C order without gaps (strides of size-1 dimensions do not matter). */
    boolean isContiguous() {
        long expected = 1;
        for (int d = size.length - 1; d >= 0; d--) {
            if (size[d] != 1 && stride[d] != expected) {
                return false;
            }
            expected *= size[d];
        }
        return true;
    }

    /**
     * Copies the viewed elements into a new little-endian buffer in C order.
     *
     * @param storage the storage bytes, starting at storage index 0 and covering {@link #storageExtent()}
     * @param elementSize bytes per element
     */
    ByteBuffer toContiguous(ByteBuffer storage, int elementSize) {
        long count = elementCount();
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(count * elementSize)).order(ByteOrder.LITTLE_ENDIAN);
        if (count == 0) {
            return out;
        }
        // Copy whole rows when the innermost dimension is dense, else single elements.
        int rank = size.length;
        boolean denseRows = rank > 0 && stride[rank - 1] == 1;
        int outerRank = denseRows ? rank - 1 : rank;
        int runBytes = (int) ((denseRows ? size[rank - 1] : 1) * elementSize);
        long[] index = new long[outerRank];
        for (int written = 0; written < out.capacity(); written += runBytes) {
            long start = offset;
            for (int d = 0; d < outerRank; d++) {
                start += index[d] * stride[d];
            }
            out.put(written, storage, Math.toIntExact(start * elementSize), runBytes);
            for (int d = outerRank - 1; d >= 0 && ++index[d] == size[d]; d--) {
                index[d] = 0;
            }
        }
        return out;
    }
}
