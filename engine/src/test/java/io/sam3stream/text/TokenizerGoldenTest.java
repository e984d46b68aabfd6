package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every stage of the tokenizer against upstream's goldens for all 210 phrases. */
class TokenizerGoldenTest {

    private static final ClipTokenizer TOKENIZER = new ClipTokenizer(BpeVocabulary.bundled());

    static Stream<Arguments> goldenIds() {
        return TokenizerGolden.phrases().stream()
                .map(p -> Arguments.of(TokenizerGolden.named(p), TokenizerGolden.idsByPhrase().get(p)));
    }

    static Stream<Arguments> goldenDetails() {
        return TokenizerGolden.phrasesWithDetails();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenIds")
    void tokenIdsMatchUpstream(String phrase, JsonNode expectedIds) {
        assertArrayEquals(TokenizerGolden.toIntArray(expectedIds), TOKENIZER.tokenize(phrase));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenDetails")
    void ftfyFixMatchesUpstream(String phrase, JsonNode details) {
        assertEquals(details.get("ftfy_fix_text").asText(), TextFixer.fixText(phrase));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenDetails")
    void cleanedTextMatchesUpstream(String phrase, JsonNode details) {
        assertEquals(details.get("cleaned_text").asText(), TextCleaner.clean(phrase));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenDetails")
    void wordPiecesMatchUpstream(String phrase, JsonNode details) {
        assertEquals(TokenizerGolden.toStringList(details.get("regex_pieces")),
                WordSplitter.split(details.get("cleaned_text").asText()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenDetails")
    void untruncatedBpeIdsMatchUpstream(String phrase, JsonNode details) {
        assertArrayEquals(TokenizerGolden.toIntArray(details.get("bpe_ids_no_special_untruncated")),
                TOKENIZER.encode(phrase));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenDetails")
    void idsAtContextLength77MatchUpstream(String phrase, JsonNode details) {
        assertArrayEquals(TokenizerGolden.toIntArray(details.get("ids_ctx77")), TOKENIZER.tokenize(phrase, 77));
    }
}
