package io.sam3stream.text;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ftfy 6.1.1's {@code fix_encoding}: undoes mojibake, text whose UTF-8 bytes were decoded with a single-byte
 * encoding ({@code cafÃ©} for {@code café}), by encoding it back and decoding it as UTF-8, one layer per step until
 * nothing changes. Text that is ASCII or does not look like mojibake ({@link MojibakeDetector#isBad}) is left
 * alone.
 *
 * <p>Byte strings are handled as Latin-1 strings (one char per byte) so that ftfy's byte patterns are ordinary
 * regular expressions.
 */
final class MojibakeRepair {

    /** UTF-8 bytes of U+FFFD, which a sequence that lost bytes becomes. */
    private static final String REPLACEMENT_CHARACTER_BYTES = "\u00EF\u00BF\u00BD";

    /**
     * {@code fixes.A_GRAVE_WORD_RE}: "Ã " as a word of its own is "à " whose U+00A0 byte became a space; kept a
     * separate word except in the Portuguese contractions às, àquele, àquela, àquilo.
     */
    private static final Pattern A_GRAVE_WORD = Pattern.compile("\\xC3 (?! |quele|quela|quilo|s )");

    /**
     * {@code chardata.ALTERED_UTF8_RE}: sequences that would be UTF-8 if a space were byte A0 (a no-break space
     * that some program turned into a space), limited to lead bytes that make likely characters.
     */
    private static final Pattern ALTERED_UTF8 = Pattern.compile(
            "[\\xC2\\xC3\\xC5\\xCE\\xD0\\xD9] "
                    + "|[\\xE2\\xE3] [\\x80-\\x84\\x86-\\x9F\\xA1-\\xBF]"
                    + "|[\\xE0-\\xE3][\\x80-\\x84\\x86-\\x9F\\xA1-\\xBF] "
                    + "|\\xF0 [\\x80-\\xBF][\\x80-\\xBF]"
                    + "|\\xF0[\\x80-\\xBF] [\\x80-\\xBF]"
                    + "|\\xF0[\\x80-\\xBF][\\x80-\\xBF] ");

    /**
     * {@code chardata.LOSSY_UTF8_RE}: UTF-8 (and CESU-8) sequences some of whose continuation bytes were lost,
     * shown as byte 1A (the sloppy encodings' U+FFFD) or, at most once, as '?'.
     */
    private static final Pattern LOSSY_UTF8 = Pattern.compile(
            "[\\xC2-\\xDF]\\x1A"
                    + "|[\\xC2-\\xC3]\\?"
                    + "|\\xED[\\xA0-\\xAF][\\x1A?]\\xED[\\xB0-\\xBF][\\x1A?\\x80-\\xBF]"
                    + "|\\xED[\\xA0-\\xAF][\\x1A?\\x80-\\xBF]\\xED[\\xB0-\\xBF][\\x1A?]"
                    + "|[\\xE0-\\xEF][\\x1A?][\\x1A\\x80-\\xBF]"
                    + "|[\\xE0-\\xEF][\\x1A\\x80-\\xBF][\\x1A?]"
                    + "|[\\xF0-\\xF4][\\x1A?][\\x1A\\x80-\\xBF][\\x1A\\x80-\\xBF]"
                    + "|[\\xF0-\\xF4][\\x1A\\x80-\\xBF][\\x1A?][\\x1A\\x80-\\xBF]"
                    + "|[\\xF0-\\xF4][\\x1A\\x80-\\xBF][\\x1A\\x80-\\xBF][\\x1A?]"
                    + "|\\x1A");

    // Characters that start or continue a UTF-8 sequence when read as Latin-1-like text (chardata.UTF8_CLUES).
    private static final String FIRST_OF_2 = "ÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßĂĆČĎĐĘĚĞİĹŃŇŐŘŞŢŮŰ"
            + "ΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫάέήίВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ";
    private static final String FIRST_OF_3 = "àáâãäåæçèéêëìíîïăćčďęěĺŕΰαβγδεζηθικλμνξοабвгдежзийклмноп";
    private static final String FIRST_OF_4 = "ðóđğπσру";
    /** Continuation characters that rarely stand for themselves next to mojibake. */
    private static final String CONTINUATION_STRICT = "\u0080-¿ĄąĽľŁłŒœŚśŞşŠšŤťŸŹźŻżŽžƒˆˇ˘˛˜˝΄΅"
            + "ΆΈΉΊΌΎΏЁЂЃЄЅІЇЈЉЊЋЌЎЏёђѓєѕіїјљњћќўџҐґ†‡•‰‹›€№™";
    /** All continuation characters, including a space standing in for U+00A0. */
    private static final String CONTINUATION = CONTINUATION_STRICT + "–—―‘’‚“”„… ";

    /**
     * {@code chardata.UTF8_DETECTOR_RE}: runs of UTF-8-looking sequences, not preceded by a strict continuation
     * character (so that a few characters inside a larger garble are not fixed on their own).
     */
    private static final Pattern UTF8_LOOKALIKE = Pattern.compile("(?<![" + CONTINUATION_STRICT + "])(?:"
            + "[" + FIRST_OF_2 + "][" + CONTINUATION + "]"
            + "|[" + FIRST_OF_3 + "][" + CONTINUATION + "]{2}"
            + "|[" + FIRST_OF_4 + "][" + CONTINUATION + "]{3})+");

    private MojibakeRepair() {}

    /** The text with every layer of recognisable mojibake undone. */
    static String fixEncoding(String text) {
        while (true) {
            String fixed = fixOneLayer(text);
            if (fixed.equals(text)) {
                return text;
            }
            text = fixed;
        }
    }

    /** ftfy's {@code _fix_encoding_one_step_and_explain}. */
    private static String fixOneLayer(String text) {
        if (isAscii(text) || !MojibakeDetector.isBad(text)) {
            return text;
        }
        for (SingleByteCharmap charmap : SingleByteCharmap.values()) {
            if (charmap.canEncode(text)) {
                Optional<String> decoded = Utf8VariantsDecoder.decode(transcode(charmap, text));
                if (decoded.isPresent()) {
                    return decoded.get();
                }
            }
        }
        if (UTF8_LOOKALIKE.matcher(text).find()) {
            String fixed = decodeInconsistentUtf8(text);
            if (!fixed.equals(text)) {
                return fixed;
            }
        }
        // ftfy next tries Latin-1 text as Windows-1252 and then fixes C1 controls one by one; the first succeeds
        // exactly when the second changes something, and both give Windows-1252's characters
        return CharacterFixes.fixC1Controls(text);
    }

    /** The text's bytes in a single-byte encoding, with the repairs ftfy applies before decoding them as UTF-8. */
    private static byte[] transcode(SingleByteCharmap charmap, String text) {
        String bytes = new String(charmap.encode(text), StandardCharsets.ISO_8859_1);
        if (ALTERED_UTF8.matcher(bytes).find()) {
            bytes = restoreByteA0(bytes);
        }
        if (charmap.isSloppy()) {
            bytes = LOSSY_UTF8.matcher(bytes).replaceAll(REPLACEMENT_CHARACTER_BYTES);
        }
        return bytes.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code fixes.restore_byte_a0}: puts back the A0 bytes that became spaces inside likely UTF-8 sequences. */
    private static String restoreByteA0(String bytes) {
        String aGraveRestored = A_GRAVE_WORD.matcher(bytes).replaceAll("\u00C3\u00A0 ");
        return ALTERED_UTF8.matcher(aGraveRestored)
                .replaceAll(m -> Matcher.quoteReplacement(m.group().replace(' ', '\u00A0')));
    }

    /**
     * {@code fixes.decode_inconsistent_utf8}: fixes each UTF-8-looking run on its own, for text that mixes mojibake
     * with characters no single encoding can explain. A run is fixed only if it is shorter than the whole text (so
     * this cannot recurse forever) and looks bad by itself.
     */
    private static String decodeInconsistentUtf8(String text) {
        return UTF8_LOOKALIKE.matcher(text).replaceAll(m -> {
            String run = m.group();
            boolean fix = run.length() < text.length() && MojibakeDetector.isBad(run);
            return Matcher.quoteReplacement(fix ? fixEncoding(run) : run);
        });
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
