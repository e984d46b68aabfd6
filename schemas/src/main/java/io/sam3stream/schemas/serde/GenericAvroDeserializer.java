package io.sam3stream.schemas.serde;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent-wire-format records as {@link GenericRecord}s, for code that has no generated class: tools that
 * handle any record in its writer's schema (dead-letter inspection, dumps), or readers pinned to one version of a
 * schema, which then get every record resolved to that version. Failures are reported as by
 * {@link SpecificAvroDeserializer}.
 */
public final class GenericAvroDeserializer implements Deserializer<GenericRecord> {

    private WireFormatReader<GenericRecord> reader;

    /** For Kafka, which then calls {@link #configure}: records read in their writer's schema. */
    public GenericAvroDeserializer() {
    }

    /** Reads records in their writer's schema, fetched from {@code registry}. */
    public GenericAvroDeserializer(SchemaRegistryClient registry) {
        this.reader = readerOf(registry, null);
    }

    /** Reads records resolved to {@code readerSchema}, whatever compatible schema they were written with. */
    public GenericAvroDeserializer(SchemaRegistryClient registry, Schema readerSchema) {
        this.reader = readerOf(registry, readerSchema);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.reader = readerOf(AvroSerdeConfig.registryClient(configs), null);
    }

    @Override
    public GenericRecord deserialize(String topic, byte[] data) {
        return data == null ? null : reader.read(data);
    }

    private static WireFormatReader<GenericRecord> readerOf(SchemaRegistryClient registry, Schema readerSchema) {
        return new WireFormatReader<>(registry, writerSchema -> {
            if (readerSchema == null) {
                return new GenericDatumReader<>(writerSchema, writerSchema, GenericData.get());
            }
            SchemaResolution.requireReadable(writerSchema, readerSchema);
            return new GenericDatumReader<>(writerSchema, readerSchema, GenericData.get());
        });
    }
}
