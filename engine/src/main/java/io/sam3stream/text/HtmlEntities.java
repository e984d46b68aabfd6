package io.sam3stream.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTML character references, decoded two ways: as Python's {@code html.unescape} does (used twice by upstream's
 * {@code basic_clean}) and as ftfy's stricter {@code unescape_html} does (one of ftfy's fixes).
 *
 * <p>The named references are the HTML5 list (resource {@code html5-entities.tsv}), including the legacy names that
 * may appear without a semicolon ({@code &amp}, {@code &copy}).
 */
final class HtmlEntities {

    /** Python's {@code html._charref}: decimal and hex references, and names of up to 32 characters. */
    private static final Pattern PYTHON_REFERENCE =
            Pattern.compile("&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\\t\\n\\f <&#;]{1,32};?)");

    /** ftfy's {@code HTML_ENTITY_RE}: only references closed by a semicolon. */
    private static final Pattern FTFY_REFERENCE = Pattern.compile("&#?[0-9A-Za-z]{1,24};");

    private HtmlEntities() {}

    /** Python's {@code html.unescape}: every named and numeric reference, with the HTML5 error recovery rules. */
    static String unescape(String text) {
        if (text.indexOf('&') < 0) {
            return text;
        }
        return PYTHON_REFERENCE.matcher(text)
                .replaceAll(m -> Matcher.quoteReplacement(decodePythonReference(m.group(1))));
    }

    /**
     * ftfy's {@code unescape_html}: only references that end in a semicolon; a numeric one must be consumed whole by
     * {@link #unescape}, and a named one must be in ftfy's table.
     */
    static String unescapeStrict(String text) {
        if (text.indexOf('&') < 0) {
            return text;
        }
        return FTFY_REFERENCE.matcher(text).replaceAll(m -> Matcher.quoteReplacement(decodeFtfyReference(m.group())));
    }

    private static String decodeFtfyReference(String reference) {
        String named = Tables.FTFY_NAMED.get(reference);
        if (named != null) {
            return named;
        }
        if (reference.startsWith("&#")) {
            String decoded = unescape(reference);
            return decoded.indexOf(';') >= 0 ? reference : decoded;
        }
        return reference;
    }

    private static String decodePythonReference(String reference) {
        if (reference.charAt(0) == '#') {
            boolean hex = reference.charAt(1) == 'x' || reference.charAt(1) == 'X';
            String digits = reference.substring(hex ? 2 : 1, reference.length() - (reference.endsWith(";") ? 1 : 0));
            return decodeNumericReference(new BigInteger(digits, hex ? 16 : 10));
        }
        String named = Tables.NAMED.get(reference);
        if (named != null) {
            return named;
        }
        // the longest prefix that is a name (only the legacy names without semicolon can be prefixes)
        for (int length = reference.length() - 1; length > 1; length--) {
            String prefixValue = Tables.NAMED.get(reference.substring(0, length));
            if (prefixValue != null) {
                return prefixValue + reference.substring(length);
            }
        }
        return "&" + reference;
    }

    /** HTML5's numeric reference rules as Python implements them ({@code html._replace_charref}). */
    private static String decodeNumericReference(BigInteger number) {
        if (number.bitLength() > 31 || number.intValue() > Character.MAX_CODE_POINT) {
            return "\uFFFD";
        }
        int cp = number.intValue();
        if (cp == 0x00) {
            return "\uFFFD";
        }
        if (cp == 0x0D) {
            return "\r";
        }
        if (cp >= 0x80 && cp <= 0x9F) {
            // references to C1 controls mean the Windows-1252 character (the undefined ones stay as they are)
            return String.valueOf(SingleByteCharmap.SLOPPY_WINDOWS_1252.decode((byte) cp));
        }
        if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
            return "\uFFFD";
        }
        if (isDroppedCodePoint(cp)) {
            return "";
        }
        return new String(Character.toChars(cp));
    }

    /** Python's {@code html._invalid_codepoints} (C1 controls are handled before): these references vanish. */
    private static boolean isDroppedCodePoint(int cp) {
        return (cp >= 0x01 && cp <= 0x08) || cp == 0x0B || (cp >= 0x0E && cp <= 0x1F) || cp == 0x7F
                || (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
    }

    /** The reference tables, read on first use: most prompts contain no reference at all. */
    private static final class Tables {

        /** HTML5 named references, keyed by name with its semicolon when it has one ({@code amp;}, {@code amp}). */
        static final Map<String, String> NAMED = readNamedReferences();

        /**
         * ftfy's table: {@code &name;} for every semicolon-terminated name, plus the all-capitals form of each
         * lower-case name when that form means nothing to {@link HtmlEntities#unescape} (so {@code &EACUTE;} gives É but
         * {@code &AMP;} keeps its standard meaning).
         */
        static final Map<String, String> FTFY_NAMED = ftfyNamedReferences();

        private static Map<String, String> ftfyNamedReferences() {
            Map<String, String> table = new HashMap<>();
            for (Map.Entry<String, String> entry : NAMED.entrySet()) {
                String name = entry.getKey();
                if (!name.endsWith(";")) {
                    continue;
                }
                table.put("&" + name, entry.getValue());
                if (name.equals(name.toLowerCase(Locale.ROOT))) {
                    String upperReference = "&" + name.toUpperCase(Locale.ROOT);
                    if (unescape(upperReference).equals(upperReference)) {
                        table.put(upperReference, entry.getValue().toUpperCase(Locale.ROOT));
                    }
                }
            }
            return table;
        }

        private static Map<String, String> readNamedReferences() {
            Map<String, String> table = new HashMap<>(4096);
            try (InputStream in = HtmlEntities.class.getResourceAsStream("html5-entities.tsv")) {
                if (in == null) {
                    throw new IllegalStateException("resource html5-entities.tsv missing");
                }
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.isEmpty() || line.startsWith("#")) {
                        continue;
                    }
                    int tab = line.indexOf('\t');
                    StringBuilder value = new StringBuilder(2);
                    for (String hex : line.substring(tab + 1).split(" ")) {
                        value.appendCodePoint(Integer.parseInt(hex, 16));
                    }
                    table.put(line.substring(0, tab), value.toString());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return table;
        }
    }
}
