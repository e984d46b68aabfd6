package io.sam3stream.schemas;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.MaskFormat;
import java.util.List;
import org.apache.avro.Schema;

/**
 * The named types that several contracts share, one file each in {@code src/main/avro/common/}. Each is
 * registered under its own subject ({@link Topics#referenceSubject}) and the schemas that use it name it through
 * a schema reference, exactly as the {@code .avsc} files name it, so that a producer registering the files as
 * written gets the ids the project's serializer uses.
 */
public final class SharedTypes {

    /** Every shared type, as its generated class carries it. */
    public static final List<Schema> ALL = List.of(Box.getClassSchema(), MaskFormat.getClassSchema());

    private SharedTypes() {
    }
}
