package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** ftfy behaviours that are decided by more than one fix or by the segment loop. */
class TextFixerTest {

    @Test
    void mojibakeIsUndoneLayerByLayer() {
        assertEquals("caf\u00E9", TextFixer.fixText("caf\u00C3\u0192\u00C2\u00A9"));
    }

    @Test
    void spacesThatWereNoBreakSpacesAreRestoredInsideMojibake() {
        assertEquals("voil\u00E0 le travail", TextFixer.fixText("voil\u00C3 le travail"));
    }

    @Test
    void bytesLostToReplacementCharactersBecomeOneReplacementCharacter() {
        assertEquals("\" like this \uFFFD", TextFixer.fixText("\u00E2\u20AC\u0153 like this \u00E2\u20AC\uFFFD"));
    }

    @Test
    void mojibakeNextToTextNoEncodingExplainsIsFixedOnItsOwn() {
        assertEquals("\u65E5\u672C caf\u00E9 \u2713", TextFixer.fixText("\u65E5\u672C caf\u00C3\u00A9 \u2713"));
    }

    @Test
    void legitimateAccentedTextIsLeftAlone() {
        assertEquals("Zw\u00F6lf Boxk\u00E4mpfer jagen Eva quer \u00FCber den Sylter Deich \u00A9 \u00BD \u00B0C",
                TextFixer.fixText("Zw\u00F6lf Boxk\u00E4mpfer jagen Eva quer \u00FCber den Sylter Deich \u00A9 \u00BD \u00B0C"));
    }

    @Test
    void htmlReferencesStopBeingDecodedFromTheFirstLineWithATag() {
        assertEquals("a &\n<b> &amp;\nc &amp;", TextFixer.fixText("a &amp;\n<b> &amp;\nc &amp;"));
    }

    @Test
    void loneSurrogatesBecomeReplacementCharacters() {
        assertEquals("a\uFFFDb", TextFixer.fixText("a\uD800b"));
    }

    @Test
    void widthLigaturesQuotesAndControlsAreNormalised() {
        assertEquals("LOUD NOISES fluffiest \"it's\"\nred",
                TextFixer.fixText("\uFF2C\uFF2F\uFF35\uFF24\u3000\uFF2E\uFF2F\uFF29\uFF33\uFF25\uFF33 "
                        + "\uFB02u\uFB03e\uFB06 \u201Cit\u2019s\u201D\r\n\u001B[31mr\u0007ed\u001B[0m"));
    }
}
