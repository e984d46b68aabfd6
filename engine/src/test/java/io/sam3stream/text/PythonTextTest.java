package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PythonTextTest {

    @Test
    void stripRemovesWhatPythonCallsSpaceIncludingNoBreakAndSeparatorControls() {
        assertEquals("a \u200B b", PythonText.strip("\u00A0\u001C\u202F a \u200B b\u0085\u3000"));
    }

    @Test
    void whitespaceRunsCollapseToOneSpace() {
        assertEquals("a b c\u001Fd", PythonText.collapseWhitespace(" a\t\n b\u2007\u00A0c\u001Fd  "));
    }

    @Test
    void capitalSigmaIsFinalAfterACasedLetterWithNoneFollowing() {
        assertEquals("\u03BF\u03B4\u03BF\u03C2 \u03B1\u03C2", PythonText.lower("\u039F\u0394\u039F\u03A3 \u0391\u03A3"));
        assertEquals("\u03C3", PythonText.lower("\u03A3"), "no cased letter before");
        assertEquals("\u03B1\u03C3\u03B1", PythonText.lower("\u0391\u03A3\u0391"), "cased letter after");
        assertEquals("\u03B1\u03C3.\u00AA", PythonText.lower("\u0391\u03A3.\u00AA"),
                "case-ignorable '.' is skipped; \u00AA is cased (Other_Lowercase)");
        assertEquals("\u03B1\u03C2\u00B9\u0447", PythonText.lower("\u0391\u03A3\u00B9\u0427"),
                "\u00B9 is neither cased nor case-ignorable, so the search ends there");
    }

    @Test
    void lowerUsesFullMappings() {
        assertEquals("i\u0307stanbul", PythonText.lower("\u0130STANBUL"));
    }
}
