package io.sam3stream.schemas.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.SchemaReference;
import io.sam3stream.schemas.registry.SchemaText;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * A schema in the form its {@code .avsc} file writes it, which is the form the project registers:
 *
 * <ul>
 *   <li>without the {@code avro.java.string} properties that Avro's code generator adds to every string of a
 *       generated class (what Confluent's serializer drops with {@code avro.remove.java.properties=true});
 *   <li>with each shared type ({@link io.sam3stream.schemas.SharedTypes}) that it uses named, not inlined, and
 *       listed as a schema reference to that type's own subject ({@link Topics#referenceSubject}), references
 *       sorted by type name. A shared type is recognised by its full name and its whole definition; a type that
 *       merely shares the name is kept inline.
 * </ul>
 *
 * Registering the files that way (each common type under its full name, then each top-level file with references
 * to them) therefore gives the ids that {@link AvroSerializer} writes.
 */
final class WrittenForm {

    /** The property Avro's code generator adds to string types; no {@code .avsc} of the project has it. */
    static final String JAVA_STRING_PROPERTY = "avro.java.string";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One schema to register.
     *
     * @param subject where it is registered ({@code null} for the top-level schema, whose subject the topic gives)
     * @param text its JSON, shared types named rather than inlined
     * @param referencedTypes the full names of the shared types it names, sorted
     */
    record Part(String subject, String text, List<String> referencedTypes) {

        /** The registry's form of this part, given the version each referenced type's subject holds it as. */
        SchemaText schemaText(Map<String, Integer> versionsBySubject) {
            List<SchemaReference> references = new ArrayList<>();
            for (String type : referencedTypes) {
                String subject = Topics.referenceSubject(type);
                references.add(new SchemaReference(type, subject, versionsBySubject.get(subject)));
            }
            return new SchemaText(text, references);
        }
    }

    private final List<Part> sharedParts;
    private final Part top;

    private WrittenForm(List<Part> sharedParts, Part top) {
        this.sharedParts = sharedParts;
        this.top = top;
    }

    /** The written form of {@code schema}, whose uses of {@code sharedTypes} become references. */
    static WrittenForm of(Schema schema, List<Schema> sharedTypes) {
        Map<String, String> sharedTexts = new LinkedHashMap<>();
        for (Schema shared : sharedTypes) {
            sharedTexts.put(shared.getFullName(), withoutJavaProperties(shared).toString());
        }
        Map<String, Part> sharedParts = new LinkedHashMap<>();
        Part top = part(null, withoutJavaProperties(schema), sharedTexts, sharedParts);
        return new WrittenForm(List.copyOf(sharedParts.values()), top);
    }

    /** The shared types this schema uses, each after the shared types it uses itself. */
    List<Part> sharedParts() {
        return sharedParts;
    }

    /** The schema itself. */
    Part top() {
        return top;
    }

    /** {@code schema} without {@link #JAVA_STRING_PROPERTY} anywhere in its types. */
    static Schema withoutJavaProperties(Schema schema) {
        try {
            JsonNode tree = JSON.readTree(schema.toString());
            strip(tree);
            return new Schema.Parser().parse(tree.toString());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException("Avro printed a schema that is not JSON", e);
        }
    }

    private static void strip(JsonNode type) {
        if (type.isArray()) { // a union
            type.forEach(WrittenForm::strip);
        } else if (type.isObject()) {
            ObjectNode node = (ObjectNode) type;
            node.remove(JAVA_STRING_PROPERTY);
            // only where types sit: a default value may hold any key and must stay as written
            strip(node.path("type"));
            strip(node.path("items"));
            strip(node.path("values"));
            node.path("fields").forEach(field -> strip(field.path("type")));
        }
    }

    // Schema.toString(Collection, boolean) is deprecated in Avro 1.12, and nothing replaces it: it is the one printer
    // that writes the types of the given references by name instead of inlining them.
    @SuppressWarnings("deprecation")
    private static Part part(String subject, Schema schema, Map<String, String> sharedTexts,
            Map<String, Part> sharedParts) {
        Map<String, Schema> used = new TreeMap<>();
        collectShared(schema, sharedTexts, new HashSet<>(), used, true);
        for (Schema shared : used.values()) {
            String name = shared.getFullName();
            if (!sharedParts.containsKey(name)) {
                Map<String, String> others = new LinkedHashMap<>(sharedTexts);
                others.remove(name);
                Part part = part(Topics.referenceSubject(name), shared, others, sharedParts);
                sharedParts.put(name, part);
            }
        }
        return new Part(subject, schema.toString(used.values(), false), List.copyOf(used.keySet()));
    }

    /** The shared types {@code schema} names directly (not through another shared type), by full name. */
    private static void collectShared(Schema schema, Map<String, String> sharedTexts, Set<String> seen,
            Map<String, Schema> used, boolean isRoot) {
        switch (schema.getType()) {
            case RECORD, ENUM, FIXED -> {
                if (!seen.add(schema.getFullName())) {
                    return;
                }
                if (!isRoot && schema.toString().equals(sharedTexts.get(schema.getFullName()))) {
                    used.put(schema.getFullName(), schema);
                    return;
                }
                if (schema.getType() == Schema.Type.RECORD) {
                    schema.getFields().forEach(f -> collectShared(f.schema(), sharedTexts, seen, used, false));
                }
            }
            case ARRAY -> collectShared(schema.getElementType(), sharedTexts, seen, used, false);
            case MAP -> collectShared(schema.getValueType(), sharedTexts, seen, used, false);
            case UNION -> schema.getTypes().forEach(t -> collectShared(t, sharedTexts, seen, used, false));
            default -> {
                // primitives name nothing
            }
        }
    }
}
