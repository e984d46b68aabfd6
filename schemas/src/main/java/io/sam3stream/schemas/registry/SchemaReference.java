package io.sam3stream.schemas.registry;

import java.util.Objects;

/**
 * A named type that a schema uses without defining it, taken from another subject's version, as Confluent's
 * {@code references} entries say it: {@code {"name": ..., "subject": ..., "version": ...}}.
 *
 * @param name the full name of the Avro type the schema refers to
 * @param subject the subject whose version defines that type
 * @param version that version's number
 */
public record SchemaReference(String name, String subject, int version) {

    /** Checks the parts are present. */
    public SchemaReference {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(subject, "subject");
    }
}
