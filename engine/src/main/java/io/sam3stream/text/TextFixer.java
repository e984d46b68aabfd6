package io.sam3stream.text;

/**
 * ftfy 6.1.1's {@code fix_text} with its default configuration, which upstream applies to every prompt first:
 * HTML references, mojibake, C1 controls, Latin ligatures, character widths, curly quotes, line breaks, lone
 * surrogates, terminal escapes and control characters are fixed, then the text is NFC-normalised.
 *
 * <p>The text is fixed one line at a time (each segment ends after its {@code \n}), and each line is fixed
 * repeatedly until it stops changing. HTML references are decoded only until a line contains {@code <} (the text
 * then looks like real HTML); as in ftfy 6.1.1, that also switches them off for every later line.
 */
final class TextFixer {

    /** ftfy's {@code max_decode_length}: longer lines are fixed in pieces of this many code points. */
    private static final int MAX_SEGMENT_CODE_POINTS = 1_000_000;

    private TextFixer() {}

    /** {@code ftfy.fix_text(text)}. */
    static String fixText(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean unescapeHtml = true;
        int pos = 0;
        while (pos < text.length()) {
            int end = segmentEnd(text, pos);
            String segment = text.substring(pos, end);
            if (segment.indexOf('<') >= 0) {
                unescapeHtml = false;
            }
            out.append(fixSegment(segment, unescapeHtml));
            pos = end;
        }
        return out.toString();
    }

    /** End of the segment starting at {@code pos}: just after the next {@code \n}, capped in length. */
    private static int segmentEnd(String text, int pos) {
        int lineEnd = text.indexOf('\n', pos);
        int end = lineEnd < 0 ? text.length() : lineEnd + 1;
        if (text.codePointCount(pos, end) > MAX_SEGMENT_CODE_POINTS) {
            end = text.offsetByCodePoints(pos, MAX_SEGMENT_CODE_POINTS);
        }
        return end;
    }

    /** ftfy's {@code fix_and_explain} on one segment: all fixes, in ftfy's order, until nothing changes. */
    private static String fixSegment(String text, boolean unescapeHtml) {
        while (true) {
            String original = text;
            if (unescapeHtml) {
                text = HtmlEntities.unescapeStrict(text);
            }
            text = MojibakeRepair.fixEncoding(text);
            text = CharacterFixes.fixC1Controls(text);
            text = CharacterFixes.fixLatinLigatures(text);
            text = CharacterFixes.fixCharacterWidth(text);
            text = CharacterFixes.uncurlQuotes(text);
            text = CharacterFixes.fixLineBreaks(text);
            text = CharacterFixes.fixSurrogates(text);
            text = CharacterFixes.removeTerminalEscapes(text);
            text = CharacterFixes.removeControlChars(text);
            text = CharacterFixes.normalizeNfc(text);
            if (text.equals(original)) {
                return text;
            }
        }
    }
}
