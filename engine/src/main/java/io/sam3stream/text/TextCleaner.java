package io.sam3stream.text;

/**
 * Upstream's text cleaning for SAM3 prompts ({@code clean="lower"}, i.e. {@code _clean_lower} in
 * {@code tokenizer_ve.py}): ftfy's {@code fix_text}, Python's {@code html.unescape} twice, strip, every whitespace
 * run to one space, strip, lower-case.
 */
final class TextCleaner {

    private TextCleaner() {}

    /** The cleaned text that pre-tokenisation sees. */
    static String clean(String text) {
        String fixed = TextFixer.fixText(text);
        String unescaped = PythonText.strip(HtmlEntities.unescape(HtmlEntities.unescape(fixed)));
        return PythonText.lower(PythonText.collapseWhitespace(unescaped));
    }
}
