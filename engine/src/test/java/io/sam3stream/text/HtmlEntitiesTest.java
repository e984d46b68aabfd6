package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HtmlEntitiesTest {

    @Test
    void pythonUnescapeDecodesLegacyNamesWithoutSemicolonAsPrefixes() {
        assertEquals("\u00ACit;", HtmlEntities.unescape("&notit;"));
        assertEquals("\u2209", HtmlEntities.unescape("&notin;"));
        assertEquals("&x", HtmlEntities.unescape("&ampx"));
        assertEquals("&unknown;", HtmlEntities.unescape("&unknown;"));
    }

    @Test
    void pythonUnescapeAppliesHtml5NumericReferenceRules() {
        assertEquals("\u00E9\u00E9\u00E9", HtmlEntities.unescape("&#233;&#xE9;&#233"));
        assertEquals("\u20AC", HtmlEntities.unescape("&#128;"), "C1 numbers mean Windows-1252");
        assertEquals("\u0081", HtmlEntities.unescape("&#129;"), "undefined in Windows-1252: kept");
        assertEquals("\uFFFD\uFFFD\uFFFD", HtmlEntities.unescape("&#0;&#xD800;&#x110000;"));
        assertEquals("\uFFFD", HtmlEntities.unescape("&#99999999999999999999;"));
        assertEquals("ab", HtmlEntities.unescape("a&#1;&#xFFFF;b"), "non-characters and controls vanish");
        assertEquals("\r", HtmlEntities.unescape("&#13;"));
        assertEquals("\uD83D\uDE00", HtmlEntities.unescape("&#x1F600;"));
    }

    @Test
    void ftfyUnescapeNeedsTheSemicolon() {
        assertEquals("&amp", HtmlEntities.unescapeStrict("&amp"));
        assertEquals("&copy 2024", HtmlEntities.unescapeStrict("&copy 2024"));
        assertEquals("\u00E9t\u00E9", HtmlEntities.unescapeStrict("&#233;t&#xE9;"));
        assertEquals("&#12a;", HtmlEntities.unescapeStrict("&#12a;"));
    }

    @Test
    void ftfyUnescapeAcceptsAllCapitalNamesThatMeanNothingElse() {
        assertEquals("P\u00C9REZ", HtmlEntities.unescapeStrict("P&EACUTE;REZ"));
        assertEquals("BUNDESSTRASSE", HtmlEntities.unescapeStrict("BUNDESSTRA&SZLIG;E"));
        assertEquals("\u00F1 \u00D1 \u00D1 &nTILDE;", HtmlEntities.unescapeStrict("&ntilde; &Ntilde; &NTILDE; &nTILDE;"));
        assertEquals("&", HtmlEntities.unescapeStrict("&AMP;"), "AMP; is a standard name");
    }
}
