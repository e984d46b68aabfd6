package io.sam3stream.schemas.registry;

import java.util.List;
import java.util.Objects;

/**
 * A schema as the registry stores and serves it: its JSON text and the references through which the text names
 * types it does not define. A self-contained schema has no references.
 *
 * @param schema the schema's JSON
 * @param references the other subjects' versions its named types come from, in the order they are sent
 */
public record SchemaText(String schema, List<SchemaReference> references) {

    /** Copies the references, so the value is immutable. */
    public SchemaText {
        Objects.requireNonNull(schema, "schema");
        references = references == null ? List.of() : List.copyOf(references);
    }

    /** A self-contained schema. */
    public static SchemaText of(String schema) {
        return new SchemaText(schema, List.of());
    }
}
