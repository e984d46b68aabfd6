package io.sam3stream.text;

import java.text.Normalizer;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * ftfy 6.1.1's fixes that work character by character ({@code ftfy/fixes.py}), each named after the ftfy function
 * it reproduces. {@link TextFixer} applies them in ftfy's order.
 */
final class CharacterFixes {

    /**
     * Latin ligatures and the digraphs that exist only for legacy conversions ({@code chardata.LIGATURES}).
     * Ligatures that are used on purpose (æ, œ) are not listed; ﬅ becomes ſt, not NFKC's st.
     */
    private static final Map<Character, String> LIGATURES = Map.ofEntries(
            Map.entry('Ĳ', "IJ"), Map.entry('ĳ', "ij"), Map.entry('ŉ', "ʼn"),
            Map.entry('Ǳ', "DZ"), Map.entry('ǲ', "Dz"), Map.entry('ǳ', "dz"),
            Map.entry('Ǆ', "DŽ"), Map.entry('ǅ', "Dž"), Map.entry('ǆ', "dž"),
            Map.entry('Ǉ', "LJ"), Map.entry('ǈ', "Lj"), Map.entry('ǉ', "lj"),
            Map.entry('Ǌ', "NJ"), Map.entry('ǋ', "Nj"), Map.entry('ǌ', "nj"),
            Map.entry('ﬀ', "ff"), Map.entry('ﬁ', "fi"), Map.entry('ﬂ', "fl"), Map.entry('ﬃ', "ffi"),
            Map.entry('ﬄ', "ffl"), Map.entry('ﬅ', "ſt"), Map.entry('ﬆ', "st"));

    private static final char FIRST_WIDTH_FORM = '\uFF01';
    private static final char LAST_WIDTH_FORM = '\uFFEF';

    /** NFKC of each halfwidth/fullwidth form U+FF01..U+FFEF, or null where NFKC keeps the character. */
    private static final String[] STANDARD_WIDTH = standardWidthForms();

    /** {@code \x1b[}, parameters, a final letter ({@code fixes.ANSI_RE}; Python's {@code \d} is any decimal digit). */
    private static final Pattern TERMINAL_ESCAPE = Pattern.compile("\u001B\\[(?:\\p{Nd}|;)*[a-zA-Z]");

    private CharacterFixes() {}

    /** {@code fix_latin_ligatures}. */
    static String fixLatinLigatures(String text) {
        return translate(text, LIGATURES::get);
    }

    /**
     * {@code fix_character_width}: U+3000 IDEOGRAPHIC SPACE becomes a space and every halfwidth or fullwidth form
     * becomes its standard-width NFKC equivalent, e.g. Ａ → A, ｶ → カ.
     */
    static String fixCharacterWidth(String text) {
        return translate(text, c -> c == '\u3000' ? " "
                : c >= FIRST_WIDTH_FORM && c <= LAST_WIDTH_FORM ? STANDARD_WIDTH[c - FIRST_WIDTH_FORM] : null);
    }

    /** {@code uncurl_quotes}: ʼ ‘ ’ ‚ ‛ become ' and “ ” „ ‟ become ". */
    static String uncurlQuotes(String text) {
        return translate(text, c -> c == '\u02BC' || (c >= '\u2018' && c <= '\u201B') ? "'"
                : c >= '\u201C' && c <= '\u201F' ? "\"" : null);
    }

    /** {@code fix_line_breaks}: CRLF, CR, U+2028, U+2029 and U+0085 become LF. */
    static String fixLineBreaks(String text) {
        return text.replace("\r\n", "\n").replace('\r', '\n').replace('\u2028', '\n').replace('\u2029', '\n')
                .replace('\u0085', '\n');
    }

    /**
     * {@code fix_surrogates}: a surrogate that is not half of a pair becomes U+FFFD. (A Python string can also hold
     * a pair as two code points, which ftfy joins; a Java string reads a pair as one code point already.)
     */
    static String fixSurrogates(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean changed = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            boolean lone = Character.charCount(cp) == 1 && Character.isSurrogate((char) cp);
            out.appendCodePoint(lone ? 0xFFFD : cp);
            changed |= lone;
            i += Character.charCount(cp);
        }
        return changed ? out.toString() : text;
    }

    /** {@code remove_terminal_escapes}: ANSI escape sequences such as colour codes. */
    static String removeTerminalEscapes(String text) {
        return text.indexOf('\u001B') < 0 ? text : TERMINAL_ESCAPE.matcher(text).replaceAll("");
    }

    /**
     * {@code remove_control_chars}: C0 controls other than tab, LF, FF and CR; DEL; the deprecated Arabic format
     * controls U+206A..U+206F; the byte-order mark U+FEFF; U+FFF9..U+FFFC (interlinear annotation, object
     * replacement). C1 controls stay: the mojibake fixes read them as evidence.
     */
    static String removeControlChars(String text) {
        return translate(text, c -> c <= 0x08 || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F
                || (c >= 0x206A && c <= 0x206F) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFC) ? "" : null);
    }

    /** {@code fix_c1_controls}: each C1 control character U+0080..U+009F becomes its Windows-1252 character. */
    static String fixC1Controls(String text) {
        return translate(text, c -> isC1Control(c)
                ? String.valueOf(SingleByteCharmap.SLOPPY_WINDOWS_1252.decode((byte) c.charValue())) : null);
    }

    private static boolean isC1Control(char c) {
        return c >= 0x80 && c <= 0x9F;
    }

    /** Canonical composition, ftfy's last step ({@code normalization="NFC"}). */
    static String normalizeNfc(String text) {
        return Normalizer.isNormalized(text, Normalizer.Form.NFC) ? text
                : Normalizer.normalize(text, Normalizer.Form.NFC);
    }

    /** Python's {@code str.translate}: each char with a replacement (null = keep) is replaced; same text if none. */
    private static String translate(String text, Function<Character, String> replacementOf) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            String replacement = replacementOf.apply(text.charAt(i));
            if (replacement != null && out == null) {
                out = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(text.charAt(i));
                }
            }
        }
        return out == null ? text : out.toString();
    }

    private static String[] standardWidthForms() {
        String[] table = new String[LAST_WIDTH_FORM - FIRST_WIDTH_FORM + 1];
        for (char c = FIRST_WIDTH_FORM; c <= LAST_WIDTH_FORM; c++) {
            String normalized = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFKC);
            table[c - FIRST_WIDTH_FORM] = normalized.equals(String.valueOf(c)) ? null : normalized;
        }
        return table;
    }
}
