package io.sam3stream.schemas.serde;

import io.sam3stream.schemas.SharedTypes;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.SchemaRegistryException;
import io.sam3stream.schemas.registry.SchemaText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro records (generated {@code SpecificRecord} classes or {@code GenericRecord}s) in the Confluent wire
 * format. The record's schema is registered (or, with {@code auto.register.schemas=false}, looked up) under the
 * topic's {@code TopicNameStrategy} subject in the form its {@code .avsc} file writes it ({@link WrittenForm}:
 * no Java-specific properties, shared types as references to their own subjects, which are registered first),
 * and its id goes into the header.
 *
 * <p>Either construct it with a registry client, or let Kafka create it by class name and configure it from the
 * keys in {@link AvroSerdeConfig}. A {@code null} record is written as {@code null} (a tombstone).
 *
 * @param <T> the record type
 */
public final class AvroSerializer<T extends IndexedRecord> implements Serializer<T> {

    private final ConcurrentMap<Schema, DatumWriter<T>> writers = new ConcurrentHashMap<>();
    private final ConcurrentMap<Schema, WrittenForm> forms = new ConcurrentHashMap<>();
    private SchemaRegistryClient registry;
    private boolean autoRegister;
    private boolean isKey;

    /** For Kafka, which then calls {@link #configure}. */
    public AvroSerializer() {
        this.autoRegister = true;
    }

    /**
     * A serializer of record values.
     *
     * @param registry where schemas are registered and ids come from
     * @param autoRegister register the record's schema (true) or require it registered beforehand (false)
     */
    public AvroSerializer(SchemaRegistryClient registry, boolean autoRegister) {
        this.registry = registry;
        this.autoRegister = autoRegister;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.registry = AvroSerdeConfig.registryClient(configs);
        this.autoRegister = AvroSerdeConfig.autoRegister(configs);
        this.isKey = isKey;
    }

    @Override
    public byte[] serialize(String topic, T record) {
        if (record == null) {
            return null;
        }
        Schema schema = record.getSchema();
        int schemaId = schemaId(Topics.subject(topic, isKey), schema);
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        ConfluentWireFormat.writeHeader(out, schemaId);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writers.computeIfAbsent(schema, s -> writerFor(s, record)).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        } catch (RuntimeException e) {
            // a record whose fields do not fit its schema (a null in a non-null field, say)
            throw new SerializationException("cannot write " + schema.getFullName() + " to " + topic, e);
        }
        return out.toByteArray();
    }

    private int schemaId(String subject, Schema schema) {
        WrittenForm form = forms.computeIfAbsent(schema, s -> WrittenForm.of(s, SharedTypes.ALL));
        try {
            Map<String, Integer> versionsBySubject = new HashMap<>();
            for (WrittenForm.Part shared : form.sharedParts()) {
                SchemaText text = shared.schemaText(versionsBySubject);
                if (autoRegister) {
                    registry.register(shared.subject(), text);
                }
                // a reference names a version, which only a look-up answers
                versionsBySubject.put(shared.subject(), registry.lookUp(shared.subject(), text).version());
            }
            SchemaText text = form.top().schemaText(versionsBySubject);
            return autoRegister ? registry.register(subject, text) : registry.lookUp(subject, text).id();
        } catch (SchemaRegistryException e) {
            throw new SerializationException("no schema id for " + schema.getFullName() + " under subject "
                    + subject + ": " + e.getMessage(), e);
        }
    }

    private DatumWriter<T> writerFor(Schema schema, T record) {
        // Generated classes carry their own SpecificData with the logical-type conversions (Instant for
        // timestamp-millis); generic records hold plain Avro values.
        return record instanceof SpecificRecord
                ? new SpecificDatumWriter<>(schema, SpecificData.getForClass(record.getClass()))
                : new GenericDatumWriter<>(schema, GenericData.get());
    }
}
