package io.sam3stream.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The Avro contracts against the HTTP contract they render to (the reference server's POST /predict, section 3 of
 * its README) and against the evolution rules: documented fields, defaults on everything optional.
 */
class SchemaContractTest {

    private static final Schema REQUEST = SegmentationRequest.getClassSchema();
    private static final Schema RESULT = SegmentationResult.getClassSchema();

    @Test
    void requestCarriesTheHttpBodyFieldsWithTheHttpDefaults() {
        assertEquals(0.5f, REQUEST.getField("threshold").defaultVal());
        assertEquals(50, REQUEST.getField("max_instances").defaultVal());
        assertEquals("png", REQUEST.getField("mask_format").defaultVal());
        assertTrue(REQUEST.getField("image").schema().isNullable());
        assertEquals(Schema.Type.ARRAY, REQUEST.getField("prompts").schema().getType());
    }

    @Test
    void maskFormatsAreTheHttpValues() {
        assertEquals(List.of("png", "rle", "rle_compressed", "none"),
                REQUEST.getField("mask_format").schema().getEnumSymbols());
        assertEquals(REQUEST.getField("mask_format").schema(), RESULT.getField("mask_format").schema());
    }

    @Test
    void resultHasEveryFieldOfTheHttpResponse() {
        assertHasFields(RESULT, "width", "height", "input_size", "threshold", "mask_format", "results", "timing_ms");
        Schema promptResult = RESULT.getField("results").schema().getElementType();
        assertHasFields(promptResult, "prompt", "presence", "num_instances", "instances");
        Schema instance = promptResult.getField("instances").schema().getElementType();
        assertHasFields(instance, "score", "box_xyxy", "mask_area", "mask_png", "mask_rle");
        assertHasFields(RESULT.getField("timing_ms").schema(),
                "decode", "preprocess", "forward", "forward_per_prompt", "postprocess", "total");
    }

    @Test
    void everyTypeAndFieldIsDocumented() {
        List<String> undocumented = new ArrayList<>();
        Set<String> visited = new HashSet<>();
        collectUndocumented(REQUEST, visited, undocumented);
        collectUndocumented(RESULT, visited, undocumented);
        assertEquals(List.of(), undocumented);
    }

    @Test
    void onlyIdentityAndContentFieldsLackADefault() {
        assertEquals(Set.of("request_id", "prompts"), fieldsWithoutDefault(REQUEST));
        assertEquals(Set.of("request_id", "status"), fieldsWithoutDefault(RESULT));
    }

    @Test
    void optionalValuesAreNullFirstUnionsDefaultingToNull() {
        for (Schema record : List.of(REQUEST, RESULT)) {
            for (Schema.Field field : record.getFields()) {
                if (field.schema().isNullable()) {
                    assertEquals(Schema.Type.NULL, field.schema().getTypes().get(0).getType(), field.name());
                    assertEquals(JsonProperties.NULL_VALUE, field.defaultVal(), field.name());
                }
            }
        }
    }

    @Test
    void enumsNameTheSymbolAnUnknownOneReadsAs() {
        Map<String, String> fallbacks = Map.of(
                "MaskFormat", "png", "BoxLabel", "positive", "Status", "ERROR", "ErrorCode", "INTERNAL_ERROR");
        Set<String> visited = new HashSet<>();
        List<Schema> enums = new ArrayList<>();
        collectEnums(REQUEST, visited, enums);
        collectEnums(RESULT, visited, enums);
        assertEquals(fallbacks.keySet(), Set.copyOf(enums.stream().map(Schema::getName).toList()));
        for (Schema enumSchema : enums) {
            assertEquals(fallbacks.get(enumSchema.getName()), enumSchema.getEnumDefault(), enumSchema.getName());
        }
    }

    private static void assertHasFields(Schema record, String... names) {
        for (String name : names) {
            assertTrue(record.getField(name) != null, record.getName() + " lacks " + name);
        }
    }

    private static Set<String> fieldsWithoutDefault(Schema record) {
        Set<String> names = new HashSet<>();
        for (Schema.Field field : record.getFields()) {
            if (!field.hasDefaultValue()) {
                names.add(field.name());
            }
        }
        return names;
    }

    private static void collectUndocumented(Schema schema, Set<String> visited, List<String> undocumented) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!visited.add(schema.getFullName())) {
                    return;
                }
                requireDoc(schema.getDoc(), schema.getName(), undocumented);
                for (Schema.Field field : schema.getFields()) {
                    requireDoc(field.doc(), schema.getName() + "." + field.name(), undocumented);
                    collectUndocumented(field.schema(), visited, undocumented);
                }
            }
            case ENUM -> {
                if (visited.add(schema.getFullName())) {
                    requireDoc(schema.getDoc(), schema.getName(), undocumented);
                }
            }
            case ARRAY -> collectUndocumented(schema.getElementType(), visited, undocumented);
            case MAP -> collectUndocumented(schema.getValueType(), visited, undocumented);
            case UNION -> schema.getTypes().forEach(t -> collectUndocumented(t, visited, undocumented));
            default -> {
                // primitives carry no doc
            }
        }
    }

    private static void requireDoc(String doc, String what, List<String> undocumented) {
        if (doc == null || doc.isBlank()) {
            undocumented.add(what);
        }
    }

    private static void collectEnums(Schema schema, Set<String> visited, List<Schema> enums) {
        switch (schema.getType()) {
            case RECORD -> {
                if (visited.add(schema.getFullName())) {
                    schema.getFields().forEach(f -> collectEnums(f.schema(), visited, enums));
                }
            }
            case ENUM -> {
                if (visited.add(schema.getFullName())) {
                    enums.add(schema);
                }
            }
            case ARRAY -> collectEnums(schema.getElementType(), visited, enums);
            case MAP -> collectEnums(schema.getValueType(), visited, enums);
            case UNION -> schema.getTypes().forEach(t -> collectEnums(t, visited, enums));
            default -> {
                // primitives hold no enums
            }
        }
    }
}
