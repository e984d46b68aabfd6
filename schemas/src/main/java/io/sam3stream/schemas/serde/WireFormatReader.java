package io.sam3stream.schemas.serde;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.SchemaRegistryException;
import io.sam3stream.schemas.serde.UndecodableRecordException.Reason;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads Confluent-framed Avro: parses the header, fetches the writer's schema by id from the registry and decodes
 * the body with a datum reader made for that writer schema (one per id, kept). Every way the bytes can be wrong
 * becomes an {@link UndecodableRecordException} with its reason.
 *
 * @param <T> what the datum readers produce
 */
final class WireFormatReader<T> {

    private final SchemaRegistryClient registry;
    private final Function<Schema, DatumReader<T>> readerForWriterSchema;
    private final ConcurrentMap<Integer, DatumReader<T>> readersBySchemaId = new ConcurrentHashMap<>();

    /**
     * @param registry where writer schemas are fetched by id
     * @param readerForWriterSchema makes the datum reader for one writer schema; may throw
     *     {@link UndecodableRecordException} when that writer schema cannot be read
     */
    WireFormatReader(SchemaRegistryClient registry, Function<Schema, DatumReader<T>> readerForWriterSchema) {
        this.registry = registry;
        this.readerForWriterSchema = readerForWriterSchema;
    }

    T read(byte[] record) {
        int schemaId = ConfluentWireFormat.schemaId(record);
        DatumReader<T> reader = readersBySchemaId.get(schemaId);
        if (reader == null) {
            reader = readerForWriterSchema.apply(writerSchema(schemaId));
            readersBySchemaId.putIfAbsent(schemaId, reader);
        }
        int bodyLength = record.length - ConfluentWireFormat.HEADER_LENGTH;
        BinaryDecoder decoder =
                DecoderFactory.get().binaryDecoder(record, ConfluentWireFormat.HEADER_LENGTH, bodyLength, null);
        T value;
        try {
            ClaimedSizes.walk(writerSchema(schemaId), DecoderFactory.get()
                    .binaryDecoder(record, ConfluentWireFormat.HEADER_LENGTH, bodyLength, null));
            value = reader.read(null, decoder);
        } catch (EOFException e) {
            throw new UndecodableRecordException(Reason.TRUNCATED_BODY,
                    "the " + bodyLength + "-byte body ends inside a value of schema " + schemaId, e);
        } catch (IOException | RuntimeException e) {
            throw new UndecodableRecordException(Reason.MALFORMED_BODY,
                    "the body is not valid Avro of schema " + schemaId + ": " + e.getMessage(), e);
        }
        if (!isEnd(decoder)) {
            // The writer's schema was read through and bytes remain: the header names a schema other than the
            // one the body was written with.
            throw new UndecodableRecordException(Reason.MALFORMED_BODY,
                    "bytes are left over after a complete value of schema " + schemaId);
        }
        return value;
    }

    private Schema writerSchema(int schemaId) {
        try {
            return registry.schemaById(schemaId);
        } catch (SchemaRegistryException e) {
            if (e.isSchemaNotFound()) {
                throw new UndecodableRecordException(Reason.UNKNOWN_SCHEMA_ID,
                        "the registry at " + registry.url() + " has no schema " + schemaId, e);
            }
            throw e;
        }
    }

    private static boolean isEnd(BinaryDecoder decoder) {
        try {
            return decoder.isEnd();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
