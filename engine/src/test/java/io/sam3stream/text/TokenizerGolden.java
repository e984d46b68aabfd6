package io.sam3stream.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Upstream SAM3 tokenizer outputs shipped in the test resources: the 210 phrases of {@code golden/tokenizer}
 * (upstream's own goldens) and the generated cases of {@code text/upstream-reference.json}. Parsed once per JVM.
 */
public final class TokenizerGolden {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static JsonNode idsByPhrase;
    private static JsonNode detailsByPhrase;
    private static JsonNode referenceCases;

    private TokenizerGolden() {}

    /** {@code tokenizer-golden.json}: phrase to its 32 ids. */
    public static synchronized JsonNode idsByPhrase() {
        if (idsByPhrase == null) {
            idsByPhrase = read("/golden/tokenizer/tokenizer-golden.json");
        }
        return idsByPhrase;
    }

    /** {@code tokenizer-golden-details.json}'s per-phrase stages. */
    public static synchronized JsonNode detailsByPhrase() {
        if (detailsByPhrase == null) {
            detailsByPhrase = read("/golden/tokenizer/tokenizer-golden-details.json.gz").get("phrases");
        }
        return detailsByPhrase;
    }

    /** {@code upstream-reference.json}'s cases. */
    public static synchronized JsonNode referenceCases() {
        if (referenceCases == null) {
            referenceCases = read("/text/upstream-reference.json.gz").get("cases");
        }
        return referenceCases;
    }

    /** The golden phrases in file order. */
    public static List<String> phrases() {
        List<String> phrases = new ArrayList<>();
        idsByPhrase().fieldNames().forEachRemaining(phrases::add);
        return phrases;
    }

    /** One argument set per golden phrase: the phrase (named readably) and its details. */
    public static Stream<Arguments> phrasesWithDetails() {
        return detailsByPhrase().properties().stream().map(e -> Arguments.of(named(e.getKey()), e.getValue()));
    }

    public static Named<String> named(String text) {
        return Named.of(escaped(text), text);
    }

    public static int[] toIntArray(JsonNode array) {
        int[] values = new int[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asInt();
        }
        return values;
    }

    public static List<String> toStringList(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    /** The text quoted, with anything outside printable ASCII as {@code \\uXXXX}, for readable test names. */
    public static String escaped(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c >= 0x20 && c < 0x7F) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.length() > 60 ? out.substring(0, 56) + "...\"" : out.append('"').toString();
    }

    private static JsonNode read(String resource) {
        try (InputStream in = TokenizerGolden.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("test resource missing: " + resource);
            }
            // the larger reference files ship gzipped to keep the test data small
            return JSON.readTree(resource.endsWith(".gz") ? new java.util.zip.GZIPInputStream(in) : in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
