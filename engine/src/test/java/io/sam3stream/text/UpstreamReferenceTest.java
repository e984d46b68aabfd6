package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Text cleaning and BPE ids against upstream's tokenizer module run with ftfy 6.1.1 on some 4300 inputs built to
 * exercise ftfy: mojibake through each single-byte encoding (also doubled, with lost bytes and with U+00A0 turned
 * into a space), HTML references and their error recovery, width and ligature fixes, control characters, and random
 * strings of the characters ftfy's heuristics look at ({@code text/README.md}). Each test checks every case and
 * lists the ones that differ.
 */
class UpstreamReferenceTest {

    private static final ClipTokenizer TOKENIZER = new ClipTokenizer(BpeVocabulary.bundled());

    @Test
    void ftfyFixMatchesUpstream() {
        assertEveryCase("ftfy", TextFixer::fixText);
    }

    @Test
    void pythonHtmlUnescapeMatchesUpstream() {
        assertEveryCase("html_unescape", HtmlEntities::unescape);
    }

    @Test
    void cleanedTextMatchesUpstream() {
        assertEveryCase("cleaned", TextCleaner::clean);
    }

    @Test
    void bpeIdsMatchUpstream() {
        List<String> mismatches = new ArrayList<>();
        for (JsonNode c : TokenizerGolden.referenceCases()) {
            String text = c.get("text").asText();
            int[] expected = TokenizerGolden.toIntArray(c.get("ids"));
            int[] actual = TOKENIZER.encode(text);
            if (!Arrays.equals(expected, actual)) {
                mismatches.add(TokenizerGolden.escaped(text) + ": expected " + Arrays.toString(expected) + ", got "
                        + Arrays.toString(actual));
            }
        }
        failIfAny(mismatches);
    }

    private static void assertEveryCase(String field, Function<String, String> actualOf) {
        List<String> mismatches = new ArrayList<>();
        for (JsonNode c : TokenizerGolden.referenceCases()) {
            String text = c.get("text").asText();
            String expected = c.get(field).asText();
            String actual = actualOf.apply(text);
            if (!expected.equals(actual)) {
                mismatches.add(TokenizerGolden.escaped(text) + ": expected " + TokenizerGolden.escaped(expected)
                        + ", got " + TokenizerGolden.escaped(actual));
            }
        }
        failIfAny(mismatches);
    }

    private static void failIfAny(List<String> mismatches) {
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " of " + TokenizerGolden.referenceCases().size() + " cases differ:\n"
                    + String.join("\n", mismatches.subList(0, Math.min(20, mismatches.size()))));
        }
    }
}
