package io.sam3stream.facade.predict;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Optional;

/**
 * Reads a {@code /predict} body into a JSON tree whose top-level {@code image} is already decoded from base64,
 * straight from the body's bytes. The image is nearly all of a body (a megabyte of base64 for a 640×480 photo);
 * building it into a String, scanning it and decoding it again took most of the facade's time per request.
 *
 * <p>This is the fast path only. A body it cannot take as it is — not a JSON object, malformed or duplicated
 * fields, trailing data, or base64 Jackson's strict decoder refuses (a line break inside a four-character group, no
 * padding) — gives nothing, and the caller reads it as a plain tree, whose checks decide what is wrong with it.
 */
final class ImageFirstTreeReader {

    /** The field read as bytes. */
    static final String IMAGE = "image";

    /** Standard alphabet; line breaks between four-character groups are skipped, padding is required. */
    private static final Base64Variant BASE64 = Base64Variants.MIME_NO_LINEFEEDS;

    private final ObjectReader reader;

    /**
     * @param reader the reader of the plain tree: its parser factory, limits and duplicate detection apply here
     *               too (its trailing-token check is applied to the whole body, not to each field's value)
     */
    ImageFirstTreeReader(ObjectReader reader) {
        this.reader = reader.without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /** The body's top-level object with {@code image} as a binary node, or empty when the plain path must decide. */
    Optional<ObjectNode> read(byte[] body) {
        try (JsonParser parser = reader.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            ObjectNode root = JsonNodeFactory.instance.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (IMAGE.equals(name) && value == JsonToken.VALUE_STRING) {
                    root.set(name, JsonNodeFactory.instance.binaryNode(parser.getBinaryValue(BASE64)));
                } else {
                    root.set(name, reader.<JsonNode>readTree(parser));
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                return Optional.empty();
            }
            return Optional.of(root);
        } catch (IOException | RuntimeException notForTheFastPath) {
            return Optional.empty();
        }
    }
}
