package io.sam3stream.text;

import java.util.Locale;

/**
 * The Python string semantics that upstream's text cleaning relies on, where Java's differ: Python's
 * {@code str.isspace} includes U+00A0, U+202F and U+001C..U+001F ({@link Character#isWhitespace} excludes the first
 * two and includes other controls); the {@code regex} module's {@code \s} is Unicode White_Space (U+0085 and the
 * no-break spaces, not U+001C..U+001F); and {@code str.lower} decides differently where Σ takes its final form ς.
 */
final class PythonText {

    private static final char CAPITAL_SIGMA = '\u03A3';

    /** Characters whose Word_Break property is MidLetter, MidNumLet or Single_Quote (Java does not expose it). */
    private static final String WORD_BREAK_MID_OR_QUOTE =
            "'.:\u00B7\u0387\u055F\u05F4\u2018\u2019\u2024\u2027\uFE13\uFE52\uFE55\uFF07\uFF0E\uFF1A";

    private PythonText() {}

    /** Unicode White_Space: what {@code \s} matches in the {@code regex} module. */
    static boolean isUnicodeWhiteSpace(int cp) {
        return switch (cp) {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000 -> true;
            default -> cp >= 0x2000 && cp <= 0x200A;
        };
    }

    /** Python's {@code str.isspace()} (and {@code re}'s {@code \s}): White_Space plus U+001C..U+001F. */
    static boolean isSpace(int cp) {
        return isUnicodeWhiteSpace(cp) || (cp >= 0x1C && cp <= 0x1F);
    }

    /** Unicode general category N, what {@code \p{N}} matches: digits, letter numbers (Ⅷ), other numbers (½, ①). */
    static boolean isNumber(int cp) {
        int type = Character.getType(cp);
        return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    /** Python's {@code str.isalnum()}: a letter (category L) or a number (category N). */
    static boolean isAlphanumeric(int cp) {
        return Character.isLetter(cp) || isNumber(cp);
    }

    /** Python's {@code str.strip()} without arguments. */
    static String strip(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && isSpace(text.codePointAt(start))) {
            start += Character.charCount(text.codePointAt(start));
        }
        while (end > start && isSpace(text.codePointBefore(end))) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        return text.substring(start, end);
    }

    /**
     * {@code regex.sub(r"\s+", " ", text).strip()}: every run of Unicode White_Space becomes one space, then the ends
     * are stripped with {@link #strip}.
     */
    static String collapseWhitespace(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean inRun = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!isUnicodeWhiteSpace(cp)) {
                out.appendCodePoint(cp);
            } else if (!inRun) {
                out.append(' ');
            }
            inRun = isUnicodeWhiteSpace(cp);
            i += Character.charCount(cp);
        }
        return strip(out.toString());
    }

    /**
     * Python's {@code str.lower()}. Java's root-locale lower-casing applies the same full mappings (İ becomes i̇) and
     * differs only in its test for a final Σ, so each Σ is mapped with Python's test and the text between by Java.
     */
    static String lower(String text) {
        int sigma = text.indexOf(CAPITAL_SIGMA);
        if (sigma < 0) {
            return text.toLowerCase(Locale.ROOT);
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        int start = 0;
        while (sigma >= 0) {
            out.append(text.substring(start, sigma).toLowerCase(Locale.ROOT));
            out.append(isFinalSigma(text, sigma) ? '\u03C2' : '\u03C3');
            start = sigma + 1;
            sigma = text.indexOf(CAPITAL_SIGMA, start);
        }
        return out.append(text.substring(start).toLowerCase(Locale.ROOT)).toString();
    }

    /**
     * Unicode's Final_Sigma condition as CPython tests it: skipping case-ignorable characters, the Σ follows a cased
     * character and no cased character follows it.
     */
    private static boolean isFinalSigma(String text, int sigma) {
        int before = sigma;
        while (before > 0 && isCaseIgnorable(text.codePointBefore(before))) {
            before -= Character.charCount(text.codePointBefore(before));
        }
        if (before == 0 || !isCased(text.codePointBefore(before))) {
            return false;
        }
        int after = sigma + 1;
        while (after < text.length() && isCaseIgnorable(text.codePointAt(after))) {
            after += Character.charCount(text.codePointAt(after));
        }
        return after == text.length() || !isCased(text.codePointAt(after));
    }

    /** Unicode's Cased property: lower-case, upper-case or title-case. */
    private static boolean isCased(int cp) {
        return Character.isLowerCase(cp) || Character.isUpperCase(cp) || Character.isTitleCase(cp);
    }

    /** Unicode's Case_Ignorable property: marks, format characters, modifiers, and word-internal punctuation. */
    private static boolean isCaseIgnorable(int cp) {
        return switch (Character.getType(cp)) {
            case Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.FORMAT, Character.MODIFIER_LETTER,
                    Character.MODIFIER_SYMBOL -> true;
            default -> WORD_BREAK_MID_OR_QUOTE.indexOf(cp) >= 0;
        };
    }
}
