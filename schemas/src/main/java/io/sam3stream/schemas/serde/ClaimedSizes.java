package io.sam3stream.schemas.serde;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.io.Decoder;

/**
 * Checks that the sizes an Avro body claims are backed by its bytes, before a datum reader builds anything.
 *
 * <p>Avro's readers allocate every array, map, string and bytes value at the size its prefix claims, before
 * reading its contents: a 40-byte body claiming a billion-element array makes them allocate gigabytes. This walk
 * reads the body as the writer's schema describes it and builds nothing: lengths are skipped over, and the items of
 * every array and map block are visited one by one, so a claim larger than the body ends in an
 * {@link java.io.EOFException} instead of an allocation. Avro's own {@code skip} is not enough, because it jumps
 * over a block whose byte size is given without looking at the (possibly lying) collections inside it.
 */
final class ClaimedSizes {

    private ClaimedSizes() {
    }

    /**
     * Reads one value of {@code schema} from {@code in} without building it.
     *
     * @throws java.io.EOFException when a claimed size runs past the end of the body
     * @throws IOException or a runtime exception from the decoder when the body is otherwise malformed
     */
    static void walk(Schema schema, Decoder in) throws IOException {
        switch (schema.getType()) {
            case RECORD -> {
                for (Schema.Field field : schema.getFields()) {
                    walk(field.schema(), in);
                }
            }
            case ARRAY -> {
                for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
                    for (long i = 0; i < n; i++) {
                        walk(schema.getElementType(), in);
                    }
                }
            }
            case MAP -> {
                for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
                    for (long i = 0; i < n; i++) {
                        in.skipString();
                        walk(schema.getValueType(), in);
                    }
                }
            }
            case UNION -> walk(schema.getTypes().get(in.readIndex()), in);
            case ENUM -> in.readEnum();
            case FIXED -> in.skipFixed(schema.getFixedSize());
            case STRING -> in.skipString();
            case BYTES -> in.skipBytes();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> in.readFloat();
            case DOUBLE -> in.readDouble();
            case BOOLEAN -> in.readBoolean();
            case NULL -> in.readNull();
        }
    }
}
