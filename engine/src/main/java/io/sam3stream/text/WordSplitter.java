package io.sam3stream.text;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Upstream's pre-tokenisation: {@code regex.findall} of
 * {@code <start_of_text>|<end_of_text>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+} with
 * {@code IGNORECASE}, written out as a scanner. At each position the first alternative that matches wins; a position
 * where none matches (whitespace) is skipped. Letters run together, every number character is its own piece, and
 * runs of anything else (punctuation, symbols, emoji, combining marks) form one piece.
 *
 * <p>Two effects of {@code IGNORECASE} in the {@code regex} module are kept: literals also match their case
 * variants (after lower-casing that leaves U+017F LATIN SMALL LETTER LONG S matching {@code s}), and a character
 * that is neither letter nor number but has a letter as a case variant (U+0345 COMBINING GREEK YPOGEGRAMMENI,
 * whose upper case is Ι) matches no alternative, so it is dropped.
 */
final class WordSplitter {

    private static final String[] SPECIAL_TOKENS = {ClipTokenizer.START_OF_TEXT, ClipTokenizer.END_OF_TEXT};
    private static final String[] CONTRACTIONS = {"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"};

    private WordSplitter() {}

    /** The pieces of a cleaned text, in order. */
    static List<String> split(String text) {
        List<String> pieces = new ArrayList<>();
        int pos = 0;
        while (pos < text.length()) {
            int end = matchAt(text, pos);
            if (end > pos) {
                pieces.add(text.substring(pos, end));
                pos = end;
            } else {
                pos += Character.charCount(text.codePointAt(pos));
            }
        }
        return pieces;
    }

    /** True if a piece is one of the special tokens, which map to their own ids rather than through BPE. */
    static boolean isSpecialToken(String piece) {
        for (String special : SPECIAL_TOKENS) {
            if (piece.equals(special)) {
                return true;
            }
        }
        return false;
    }

    /** End of the match of the first alternative that matches at {@code pos}, or {@code pos} when none does. */
    private static int matchAt(String text, int pos) {
        for (String special : SPECIAL_TOKENS) {
            if (literalMatches(text, pos, special)) {
                return pos + special.length();
            }
        }
        for (String contraction : CONTRACTIONS) {
            if (literalMatches(text, pos, contraction)) {
                return pos + contraction.length();
            }
        }
        int cp = text.codePointAt(pos);
        if (Character.isLetter(cp)) {
            return endOfRun(text, pos, Character::isLetter);
        }
        if (PythonText.isNumber(cp)) {
            return pos + Character.charCount(cp);
        }
        if (isOther(cp)) {
            return endOfRun(text, pos, WordSplitter::isOther);
        }
        return pos;
    }

    private static int endOfRun(String text, int pos, IntPredicate inRun) {
        int end = pos;
        while (end < text.length() && inRun.test(text.codePointAt(end))) {
            end += Character.charCount(text.codePointAt(end));
        }
        return end;
    }

    /**
     * Case-insensitive match of an ASCII literal at {@code pos}. Every literal character is BMP, and a text
     * character matches when it folds to it (upper-casing then lower-casing maps both S and ſ to s).
     */
    private static boolean literalMatches(String text, int pos, String literal) {
        if (pos + literal.length() > text.length()) {
            return false;
        }
        for (int i = 0; i < literal.length(); i++) {
            char c = text.charAt(pos + i);
            if (c != literal.charAt(i) && Character.toLowerCase(Character.toUpperCase(c)) != literal.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** {@code [^\s\p{L}\p{N}]} under {@code IGNORECASE}: the character and its case variants are all outside. */
    private static boolean isOther(int cp) {
        return !PythonText.isUnicodeWhiteSpace(cp) && !PythonText.isAlphanumeric(cp)
                && !PythonText.isAlphanumeric(Character.toUpperCase(cp))
                && !PythonText.isAlphanumeric(Character.toLowerCase(cp));
    }
}
