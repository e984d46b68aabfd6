package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.schemas.registry.SchemaReference;
import io.sam3stream.schemas.registry.SchemaText;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a register, look-up or compatibility request: {@code schema}, optional {@code schemaType},
 * {@code references}, and (for an import) {@code id} and {@code version}.
 *
 * @param schema the schema text with its references
 * @param id the id asked for, or null
 * @param version the version asked for, or null
 */
record RegistrationRequest(SchemaText schema, Integer id, Integer version) {

    /**
     * Reads a request body.
     *
     * @throws RegistryApiException 42201 for a schema type other than Avro, a missing schema, malformed
     *     references, or data-contract fields ({@code metadata}, {@code ruleSet}) this registry cannot keep
     */
    static RegistrationRequest from(JsonNode body) {
        String type = body.path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw RegistryApiException.invalidSchema("this registry holds Avro schemas only, not " + type);
        }
        for (String unsupported : List.of("metadata", "ruleSet")) {
            JsonNode value = body.path(unsupported);
            if (!value.isMissingNode() && !value.isNull() && !value.isEmpty()) {
                // refused rather than dropped: a client relying on data-contract rules must learn they do not apply
                throw RegistryApiException.invalidSchema("this registry does not keep " + unsupported
                        + " (Confluent's data contracts)");
            }
        }
        JsonNode schema = body.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw RegistryApiException.invalidSchema("the body has no \"schema\" string");
        }
        List<SchemaReference> references = new ArrayList<>();
        for (JsonNode reference : body.path("references")) {
            JsonNode name = reference.get("name");
            JsonNode subject = reference.get("subject");
            JsonNode version = reference.get("version");
            if (name == null || !name.isTextual() || subject == null || !subject.isTextual()
                    || version == null || !version.canConvertToInt()) {
                throw RegistryApiException.invalidSchema("a reference needs a \"name\", a \"subject\" and an"
                        + " integer \"version\": " + reference);
            }
            references.add(new SchemaReference(name.asText(), subject.asText(), version.asInt()));
        }
        return new RegistrationRequest(new SchemaText(schema.asText(), references), optionalInt(body, "id"),
                optionalInt(body, "version"));
    }

    private static Integer optionalInt(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.canConvertToInt()) {
            throw RegistryApiException.invalidSchema("\"" + name + "\" must be an integer: " + value);
        }
        return value.asInt();
    }
}
