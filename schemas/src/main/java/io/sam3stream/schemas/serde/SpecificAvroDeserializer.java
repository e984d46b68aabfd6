package io.sam3stream.schemas.serde;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent-wire-format records into a generated class. The writer's schema comes from the registry by the
 * id in the header; the reader's schema is the class's own; Avro schema resolution bridges the two, so records
 * written with an older or newer compatible version of the schema read fine (fields the reader lacks are
 * skipped, fields the writer lacked take the reader's defaults).
 *
 * <p>Failures caused by the record's bytes throw {@link UndecodableRecordException}; a registry that cannot be
 * reached throws {@link io.sam3stream.schemas.registry.SchemaRegistryException}. A {@code null} record reads as
 * {@code null}.
 *
 * @param <T> the generated class
 */
public final class SpecificAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

    private WireFormatReader<T> reader;

    /** For Kafka, which then calls {@link #configure}. */
    public SpecificAvroDeserializer() {
    }

    /**
     * A deserializer into {@code type}.
     *
     * @param registry where writer schemas are fetched by id
     * @param type the generated class to read into
     */
    public SpecificAvroDeserializer(SchemaRegistryClient registry, Class<T> type) {
        this.reader = readerInto(registry, type);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        String typeKey = isKey ? AvroSerdeConfig.SPECIFIC_AVRO_KEY_TYPE : AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE;
        @SuppressWarnings("unchecked") // the configured class is the T the caller declared
        Class<T> type = (Class<T>) AvroSerdeConfig.recordClass(configs, typeKey, SpecificRecord.class);
        this.reader = readerInto(AvroSerdeConfig.registryClient(configs), type);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return data == null ? null : reader.read(data);
    }

    private static <T extends SpecificRecord> WireFormatReader<T> readerInto(
            SchemaRegistryClient registry, Class<T> type) {
        // The generated class's own model carries its logical-type conversions (Instant for timestamp-millis).
        SpecificData model = SpecificData.getForClass(type);
        Schema readerSchema = model.getSchema(type);
        return new WireFormatReader<>(registry, writerSchema -> {
            SchemaResolution.requireReadable(writerSchema, readerSchema);
            return new StrictUtf8DatumReader<>(writerSchema, readerSchema, model);
        });
    }
}
