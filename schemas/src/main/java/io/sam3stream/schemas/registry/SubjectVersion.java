package io.sam3stream.schemas.registry;

import org.apache.avro.Schema;

/**
 * One registered version of a subject.
 *
 * @param subject the subject
 * @param version the version number within the subject, from 1
 * @param id the registry-wide schema id that the wire format carries
 * @param schema the schema
 */
public record SubjectVersion(String subject, int version, int id, Schema schema) {
}
