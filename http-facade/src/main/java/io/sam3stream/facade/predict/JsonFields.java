package io.sam3stream.facade.predict;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.facade.http.ApiException;
import java.util.function.Function;

/**
 * Typed reads of the fields of a JSON object, each failure a 422 naming the field's path. Fields not read are
 * ignored, as the reference server's schema ignores them; a present {@code null} is a wrong type, not a default.
 */
final class JsonFields {

    private final JsonNode object;
    private final String path;

    private JsonFields(JsonNode object, String path) {
        this.object = object;
        this.path = path;
    }

    /** The fields of {@code node}, which must be a JSON object. */
    static JsonFields of(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw wrongType(path, "an object", node);
        }
        return new JsonFields(node, path);
    }

    /** A required string field. */
    String requiredString(String name) {
        JsonNode node = required(name);
        if (!node.isTextual()) {
            throw wrongType(pathOf(name), "a string", node);
        }
        return node.textValue();
    }

    /** A required array field. */
    JsonNode requiredArray(String name) {
        JsonNode node = required(name);
        if (!node.isArray()) {
            throw wrongType(pathOf(name), "an array", node);
        }
        return node;
    }

    /** An optional number field, finite and within [min, max]. */
    double number(String name, double fallback, double min, double max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return fallback;
        }
        if (!node.isNumber()) {
            throw wrongType(pathOf(name), "a number", node);
        }
        double value = node.doubleValue();
        if (!(value >= min && value <= max)) { // also false for NaN
            throw ApiException.unprocessable(pathOf(name) + ": must be a number in [" + num(min) + ", " + num(max)
                    + "], got " + node);
        }
        return value;
    }

    /** An optional integer field within [min, max]; a number with no fraction (50.0) counts as an integer. */
    int integer(String name, int fallback, int min, int max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return fallback;
        }
        if (!node.isNumber() || !node.canConvertToExactIntegral()) {
            throw wrongType(pathOf(name), "an integer", node);
        }
        if (!node.canConvertToLong() || node.longValue() < min || node.longValue() > max) {
            throw ApiException.unprocessable(pathOf(name) + ": must be an integer in [" + min + ", " + max
                    + "], got " + node);
        }
        return node.intValue();
    }

    /** An optional boolean field. */
    boolean bool(String name, boolean fallback) {
        JsonNode node = object.get(name);
        if (node == null) {
            return fallback;
        }
        if (!node.isBoolean()) {
            throw wrongType(pathOf(name), "a boolean", node);
        }
        return node.booleanValue();
    }

    /** An optional string field that must be one of the values {@code parse} accepts (it returns null otherwise). */
    <T> T choice(String name, T fallback, Function<String, T> parse, String allowed) {
        JsonNode node = object.get(name);
        if (node == null) {
            return fallback;
        }
        T value = node.isTextual() ? parse.apply(node.textValue()) : null;
        if (value == null) {
            throw ApiException.unprocessable(pathOf(name) + ": must be one of " + allowed + ", got " + describe(node));
        }
        return value;
    }

    /** An optional field, null when absent. */
    JsonNode optional(String name) {
        return object.get(name);
    }

    /** The path of a field of this object, for messages. */
    String pathOf(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private JsonNode required(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            throw ApiException.unprocessable(pathOf(name) + ": field required");
        }
        return node;
    }

    static ApiException wrongType(String path, String expected, JsonNode got) {
        return ApiException.unprocessable(path + ": must be " + expected + ", got " + describe(got));
    }

    /** A short description of a value for messages: never echoes a whole (possibly megabytes long) string. */
    private static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        if (node.isTextual()) {
            String text = node.textValue();
            return text.length() <= 40 ? node.toString() : "a string of " + text.length() + " characters";
        }
        if (node.isContainerNode()) {
            return node.isArray() ? "an array" : "an object";
        }
        return node.toString();
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
