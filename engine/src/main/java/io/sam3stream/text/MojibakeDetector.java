package io.sam3stream.text;

import java.util.List;
import java.util.function.IntPredicate;

/**
 * ftfy 6.1.1's test for mojibake ({@code badness.is_bad}): the text contains one of the short character sequences
 * that UTF-8 mis-decoded as a single-byte encoding produces and intended text almost never has, such as an accented
 * lower-case letter followed by a currency sign. The about 400 characters involved are sorted into ftfy's categories
 * and each rule is a sequence of character sets, so that text is judged exactly as upstream judges it.
 *
 * <p>ftfy states the rules as one regular expression ({@code BADNESS_RE}); checking them directly over a category
 * table is equivalent (every rule has a fixed length once its one optional element is written as two rules) and
 * much faster than Java's regex engine on character classes this large.
 */
final class MojibakeDetector {

    // ftfy's character categories (badness.MOJIBAKE_CATEGORIES), one bit each.
    /** Characters used in many contexts; a sequence containing them is not mojibake by itself. */
    private static final int COMMON = 1;
    private static final int C1 = 1 << 1;
    /** Characters that are almost only ever seen in mojibake. */
    private static final int BAD = 1 << 2;
    private static final int CURRENCY = 1 << 3;
    private static final int START_PUNCTUATION = 1 << 4;
    private static final int END_PUNCTUATION = 1 << 5;
    private static final int NUMERIC = 1 << 6;
    /** Letters that emoticons are drawn with, so they may sit in odd company. */
    private static final int KAOMOJI = 1 << 7;
    private static final int UPPER_ACCENTED = 1 << 8;
    private static final int LOWER_ACCENTED = 1 << 9;
    private static final int UPPER_COMMON = 1 << 10;
    private static final int LOWER_COMMON = 1 << 11;
    private static final int BOX = 1 << 12;

    /** Category bits of each BMP character (all the categorised characters are BMP). */
    private static final short[] CATEGORIES = new short[0x10000];

    static {
        assign(COMMON, "\u00A0\u00AD·´–—―…’");
        assign(C1, "\u0080-\u009F");
        assign(BAD, "¦¤¨¬¯¶§¸ƒˆˇ˘˛˜†‡‰⌐◊\uFFFDªº");
        assign(CURRENCY, "¢£¥₧€");
        assign(START_PUNCTUATION, "¡«¿©΄΅‘‚“„•‹\uF8FF");
        assign(END_PUNCTUATION, "®»˝”›™");
        assign(NUMERIC, "²³¹±¼½¾×µ÷⁄∂∆∏∑√∞∩∫≈≠≡≤≥№");
        assign(KAOMOJI, "Ò-ÖÙ-Üò-öø-üŐ°");
        assign(UPPER_ACCENTED, "À-ÑØÜÝĂĄĆČĎĐĘĚĞİĹĽŁŃŇŒŘŚŞŠŢŤŮŰŸŹŻŽҐ");
        assign(LOWER_ACCENTED, "ßà-ñăąćčďđęěğĺľłœŕśşšťüźżžґﬁﬂ");
        assign(UPPER_COMMON, "ÞΑ-ΩΆΈΉΊΌΎΏΪΫЁ-Я");
        assign(LOWER_COMMON, "α-ωάέήίΰа-џ");
        assign(BOX, "│┌┐┘├┤┬┼═-╬▀▄█▌▐░▒▓");
    }

    private static final IntPredicate LOWER_ASCII = cp -> cp >= 'a' && cp <= 'z';
    private static final IntPredicate ASCII_LETTER = LOWER_ASCII.or(cp -> cp >= 'A' && cp <= 'Z');
    /** Python {@code re}'s {@code \s}. */
    private static final IntPredicate SPACE = PythonText::isSpace;
    /** Python {@code re}'s {@code \w}: letters, numbers, underscore. */
    private static final IntPredicate WORD = cp -> PythonText.isAlphanumeric(cp) || cp == '_';

    /** ftfy's {@code BADNESS_RE}, one rule per alternative, in its order. */
    private static final List<Rule> RULES = List.of(
            rule(in(C1)),
            rule(in(BAD | LOWER_ACCENTED | UPPER_ACCENTED | BOX | START_PUNCTUATION | END_PUNCTUATION | CURRENCY
                    | NUMERIC), in(BAD)),
            rule(ASCII_LETTER, in(LOWER_COMMON | UPPER_COMMON), in(BAD)),
            rule(in(BAD), in(LOWER_ACCENTED | UPPER_ACCENTED | BOX | START_PUNCTUATION | END_PUNCTUATION | CURRENCY
                    | NUMERIC)),
            rule(in(LOWER_ACCENTED | LOWER_COMMON | BOX | END_PUNCTUATION | CURRENCY | NUMERIC), in(UPPER_ACCENTED)),
            rule(in(BOX | END_PUNCTUATION | CURRENCY | NUMERIC), in(LOWER_ACCENTED)),
            rule(in(LOWER_ACCENTED | BOX | END_PUNCTUATION), in(CURRENCY)),
            rule(SPACE, in(UPPER_ACCENTED), in(CURRENCY)),
            rule(in(UPPER_ACCENTED | BOX), in(NUMERIC)),
            rule(in(LOWER_ACCENTED | UPPER_ACCENTED | BOX | CURRENCY | END_PUNCTUATION), in(START_PUNCTUATION),
                    in(NUMERIC)),
            rule(in(LOWER_ACCENTED | UPPER_ACCENTED | CURRENCY | NUMERIC | BOX), in(END_PUNCTUATION),
                    in(START_PUNCTUATION)),
            rule(in(CURRENCY | NUMERIC | BOX), in(START_PUNCTUATION)),
            rule(LOWER_ASCII, in(UPPER_ACCENTED), in(START_PUNCTUATION | CURRENCY)),
            rule(in(BOX), in(KAOMOJI)),
            rule(in(LOWER_ACCENTED | UPPER_ACCENTED | CURRENCY | NUMERIC | START_PUNCTUATION | END_PUNCTUATION),
                    in(BOX)),
            rule(in(BOX), in(END_PUNCTUATION)),
            rule(in(LOWER_ACCENTED | UPPER_ACCENTED), in(END_PUNCTUATION), WORD),
            // the ligature œ not followed by an unaccented Latin letter
            rule(anyOf("Œœ"), ASCII_LETTER.negate()),
            // common Windows-1252 two-character mojibake not covered above
            rule(anyOf("ÂÃÎÐ"), anyOf("€Šš¢£Ÿž\u00A0\u00AD®©°·»–—´").or(in(START_PUNCTUATION | END_PUNCTUATION))),
            rule(anyOf("×"), anyOf("²³")),
            // Windows-1252 mojibake of Arabic involves common characters, so it takes four characters
            rule(anyOf("ØÙ"), arabicMojibakeSecond(), anyOf("ØÙ"), arabicMojibakeSecond()),
            // Windows-1252 mojibake starting three-byte South Asian letters
            rule(anyOf("à"), anyOf("²µ¹¼½¾")),
            // MacRoman mojibake
            rule(anyOf("√"), anyOf("±∂†≠®™´≤≥¥µø")),
            rule(anyOf("≈"), anyOf("°¢")),
            rule(anyOf("‚"), anyOf("Ä"), anyOf("ìîïòôúùû†°¢π")),
            rule(anyOf("‚"), anyOf("âó"), anyOf("àä°ê")),
            // Windows-1251 mojibake of the U+2000 block, of Latin-1 and of Cyrillic
            rule(anyOf("в"), anyOf("Ђ")),
            rule(anyOf("ВГРС"), in(C1 | BAD | START_PUNCTUATION | END_PUNCTUATION | CURRENCY).or(anyOf("°µ")),
                    anyOf("ВГРС")),
            rule(anyOf("Г"), anyOf("ў"), anyOf("В"), anyOf("Ђ"), anyOf("В"), cp -> cp != '\n',
                    ASCII_LETTER.or(cp -> cp == ' ')),
            // Windows-1252 mojibake of à, á and of U+00A0 itself
            rule(anyOf("Ã"), anyOf("\u00A0¡")),
            rule(LOWER_ASCII, anyOf("ÃÂ"), anyOf(" ")),
            rule(LOWER_ASCII, SPACE, anyOf("ÃÂ"), anyOf(" ")),
            ruleAtStart(anyOf("ÃÂ"), anyOf(" ")),
            // Â in front of the very character it encodes
            rule(LOWER_ASCII.or(anyOf(".,?!")).or(in(END_PUNCTUATION)), anyOf("Â"),
                    anyOf(" ").or(in(START_PUNCTUATION | END_PUNCTUATION))),
            // Windows-1253 mojibake of the U+2000 block, of Latin-1 and of Greek
            rule(anyOf("β"), anyOf("€"), anyOf("™\u00A0Ά\u00AD®°")),
            rule(anyOf("ΒΓΞΟ"), in(C1 | BAD | START_PUNCTUATION | END_PUNCTUATION | CURRENCY).or(anyOf("°")),
                    anyOf("ΒΓΞΟ")));

    private MojibakeDetector() {}

    /** True if the text contains a character sequence that looks like mojibake. */
    static boolean isBad(String text) {
        int[] codePoints = text.codePoints().toArray();
        for (int start = 0; start < codePoints.length; start++) {
            for (Rule rule : RULES) {
                if (rule.matchesAt(codePoints, start)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A fixed-length sequence of character sets, optionally only at the start of the text. */
    private record Rule(IntPredicate[] sequence, boolean onlyAtStart) {
        boolean matchesAt(int[] codePoints, int start) {
            if ((onlyAtStart && start > 0) || start + sequence.length > codePoints.length) {
                return false;
            }
            for (int i = 0; i < sequence.length; i++) {
                if (!sequence[i].test(codePoints[start + i])) {
                    return false;
                }
            }
            return true;
        }
    }

    private static Rule rule(IntPredicate... sequence) {
        return new Rule(sequence, false);
    }

    private static Rule ruleAtStart(IntPredicate... sequence) {
        return new Rule(sequence, true);
    }

    /** Characters in any of the given categories. */
    private static IntPredicate in(int categories) {
        return cp -> cp < CATEGORIES.length && (CATEGORIES[cp] & categories) != 0;
    }

    private static IntPredicate anyOf(String characters) {
        return cp -> characters.indexOf(cp) >= 0;
    }

    private static IntPredicate arabicMojibakeSecond() {
        return in(COMMON | CURRENCY | BAD | NUMERIC | START_PUNCTUATION).or(anyOf("ŸŠ®°µ»"));
    }

    /** Adds a category to characters given as a regex class body: single characters and {@code a-b} ranges. */
    private static void assign(int category, String members) {
        for (int i = 0; i < members.length(); i++) {
            char first = members.charAt(i);
            char last = first;
            if (i + 2 < members.length() && members.charAt(i + 1) == '-') {
                last = members.charAt(i + 2);
                i += 2;
            }
            for (char c = first; c <= last; c++) {
                CATEGORIES[c] |= (short) category;
            }
        }
    }
}
