package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Pre-tokenisation cases that upstream's regular expression decides in ways easy to get wrong. */
class WordSplitterTest {

    @Test
    void contractionsMatchBeforeLettersAndIgnoreCase() {
        assertEquals(List.of("it", "'S", "they", "'ll"), WordSplitter.split("it'S they'll"));
        assertEquals(List.of("'s", "ingle", "'"), WordSplitter.split("'single'"));
    }

    @Test
    void longSIsACaseVariantOfS() {
        assertEquals(List.of("it", "'\u017F"), WordSplitter.split("it'\u017F"));
    }

    @Test
    void numbersAreSplitIntoSingleCharacters() {
        assertEquals(List.of("1", "2", "\u00BD", "\u2167", "x"), WordSplitter.split("12\u00BD\u2167x"));
    }

    @Test
    void otherCharactersRunTogetherAcrossEmoji() {
        assertEquals(List.of("cat", "!?\uD83D\uDC31", "dog"), WordSplitter.split("cat!?\uD83D\uDC31dog"));
    }

    @Test
    void combiningMarksAreNotLettersSoTheySplitWords() {
        assertEquals(List.of("i", "\u0307", "stanbul"), WordSplitter.split("i\u0307stanbul"));
    }

    @Test
    void ypogegrammeniMatchesNoAlternativeAndIsDropped() {
        assertEquals(List.of("x", "y"), WordSplitter.split("x\u0345y"));
    }

    @Test
    void specialTokensAreRecognisedOnlyWhereAMatchStarts() {
        assertEquals(List.of("cat", "<end_of_text>", "dog"), WordSplitter.split("cat<end_of_text>dog"));
        assertEquals(List.of("!<", "end", "_", "of", "_", "text", ">"), WordSplitter.split("!<end_of_text>"));
        assertTrue(WordSplitter.isSpecialToken("<start_of_text>"));
        assertFalse(WordSplitter.isSpecialToken("<\u017Ftart_of_text>"), "matched by the pattern, BPE'd as text");
    }

    @Test
    void whitespaceSeparatesAndIsDropped() {
        assertEquals(List.of("a", "b", "c"), WordSplitter.split("a\u3000b\u2028c"));
    }
}
