"""Writes upstream-reference.json: upstream SAM3's text cleaning and BPE ids for inputs that stress ftfy.

Usage: PYTHONPATH=<ftfy 6.1.1 source> PYTHONIOENCODING=utf-8 python3 generate_upstream_reference.py <sam3 checkout> \
           > upstream-reference.json

Runs upstream's own tokenizer module (sam3/model/tokenizer_ve.py) with ftfy 6.1.1 and the `regex` module; torch and
iopath, which encode() does not use, are replaced by stand-ins so that the module imports without them.
"""
import html
import importlib.util
import json
import random
import sys
import types

import ftfy
import ftfy.badness
import ftfy.chardata

assert ftfy.__version__ == "6.1.1", ftfy.__version__

sys.modules["torch"] = types.SimpleNamespace(LongTensor=None)
iopath = types.ModuleType("iopath")
iopath.common = types.ModuleType("iopath.common")
iopath.common.file_io = types.ModuleType("iopath.common.file_io")
iopath.common.file_io.g_pathmgr = types.SimpleNamespace(open=open)
sys.modules.update({"iopath": iopath, "iopath.common": iopath.common,
                    "iopath.common.file_io": iopath.common.file_io})
spec = importlib.util.spec_from_file_location("tokenizer_ve", sys.argv[1] + "/sam3/model/tokenizer_ve.py")
tokenizer_ve = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tokenizer_ve)

tokenizer = tokenizer_ve.SimpleTokenizer(sys.argv[1] + "/sam3/assets/bpe_simple_vocab_16e6.txt.gz")

PHRASES = [
    "café au lait", "crème brûlée", "jalapeño", "Ölkanne", "smørrebrød", "Łódź", "Kraków", "Dvořák", "naïve",
    "façade", "garçon", "Ærøskøbing", "señor", "São Tomé", "Zürich", "İstanbul", "ıspanak", "Ελλάδα", "σκύλος",
    "Москва", "собака", "кот", "Київ", "Україна", "مرحبا", "كلب", "שלום", "כלב", "नमस्ते", "कुत्ता", "ภาษาไทย",
    "日本語", "犬", "猫", "中文", "한국어", "강아지", "Tiếng Việt", "chó", "ქართული", "Հայերեն", "Ⓐⓑⓒ", "à la mode",
    "às vezes", "voilà le travail", "résumé", "Ça va?", "Größe", "Straße", "ÄÖÜ äöü", "fiancée", "Ñandú", "Øresund",
    "Þingvellir", "Ðakovo", "Čapek", "Šibenik", "Žilina", "Ćevapi", "Ğ ğ", "Ş ş", "€100", "£5 note", "¥1000",
    "25°C", "½ cup", "x² + y³", "±5%", "™ ® ©", "“quoted” ‘single’", "en–dash — em", "…and more", "•bullet",
    "«guillemets»", "¿qué?", "¡hola!", "µm", "Ω", "№5", "√2", "∞", "≤ ≥ ≠", "✔ done", "☃ snowman", "🐶 dog",
    "👍🏽 thumbs", "🇫🇷 flag", "❤️ heart", "ﬁsh", "ﬂour", "ﬀ", "ﬃ", "ﬅ", "Ǆ ǅ ǆ", "Ĳssel", "ŉ", "ＡＢＣ １２３",
    "ｶﾀｶﾅ", "　ideographic space", "\u2028line\u2029para", "tab\there", "cr\rlf", "nbsp\u00a0here",
    "soft\u00adhyphen", "zero\u200bwidth", "joiner\u200dhere", "\ufeffbom", "bell\x07", "del\x7f", "esc\x1b[1;31mbold",
    "c1\x80\x81\x8d\x9f", "a\u0345b", "ſtreet", "'ſ test", "<ſtart_of_text>", "ΑΘΗΝΑΣ", "ΟΔΟΣ", "σς", "Ǉubljana",
]

HTML_CASES = [
    "&amp;", "&amp", "&AMP;", "&ampx", "&lt;b&gt;", "&notit;", "&not it", "&notin;", "&copy 2024", "&COPY;",
    "&eacute;", "&EACUTE;", "&Eacute;", "&NTILDE;", "&nTILDE;", "&SZLIG;", "&szlig;", "&Jscr;ohn", "&checkmark;",
    "&#233;", "&#xE9;", "&#XE9;", "&#233", "&#0;", "&#13;", "&#128;", "&#129;", "&#150;", "&#x110000;",
    "&#xD800;", "&#65534;", "&#1;", "&#11;", "&#12;", "&#x7f;", "&#99999999999999999999;", "&#x1F600;",
    "&#12a;", "&#abc;", "&unknown;", "&frac12;", "&FRAC12;", "&hellip;", "&rsquo;s", "&nbsp;x", "&NBSP;",
    "&amp;amp;amp;", "&amp;lt;", "a&b", "&", "&;", "&#;", "&#x;", "x &lt; y", "line1 &amp;\n<tag> &amp;\nlast &amp;",
    "first &amp;\nsecond &amp;", "&lt;\n&amp;", "&NotEqualTilde;", "&fjlig;", "&ThickSpace;", "&CounterClockwiseContourIntegral;",
]


def mojibake_variants(text):
    raw = text.encode("utf-8")
    out = []
    for encoding in ftfy.chardata.CHARMAP_ENCODINGS + ["windows-1252"]:
        try:
            once = raw.decode(encoding, errors="replace" if encoding == "windows-1252" else "strict")
        except UnicodeDecodeError:
            continue
        out.append(once)
        out.append(once.replace("\xa0", " "))
        try:
            out.append(once.encode("utf-8").decode(encoding))
        except UnicodeDecodeError:
            pass
    latin1 = raw.decode("latin-1")
    out.append(latin1 + " " + text)
    out.append("日本 " + raw.decode("sloppy-windows-1252") + " ✓")
    out.append(raw.decode("sloppy-windows-1252").upper())
    return out


def random_soup(rng, count):
    pool = set("abcxyzABCXYZ019 .,?!'_-\n\t")
    for spec in list(ftfy.badness.MOJIBAKE_CATEGORIES.values()) + list(ftfy.chardata.UTF8_CLUES.values()):
        i = 0
        while i < len(spec):
            if i + 2 < len(spec) and spec[i + 1] == "-":
                pool.update(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
                i += 3
            else:
                pool.add(spec[i])
                i += 1
    pool.update("\x1a\x85\u2026\u201c\u201d\ufffd?√≈‚вЂβ€ГўВ")
    pool = sorted(pool)
    return ["".join(rng.choice(pool) for _ in range(rng.randint(1, 10))) for _ in range(count)]


def cases():
    rng = random.Random(20251129)
    seen = set()
    inputs = PHRASES + HTML_CASES
    for phrase in PHRASES:
        inputs.extend(mojibake_variants(phrase))
    inputs.extend(random_soup(rng, 2000))
    for text in inputs:
        if text in seen:
            continue
        seen.add(text)
        yield {
            "text": text,
            "ftfy": ftfy.fix_text(text),
            "html_unescape": html.unescape(text),
            "cleaned": tokenizer_ve._clean_lower(text),
            "ids": tokenizer.encode(text),
        }


json.dump({
    "meta": {
        "upstream": "facebookresearch/sam3 sam3/model/tokenizer_ve.py SimpleTokenizer(clean='lower').encode",
        "ftfy": ftfy.__version__,
        "python": sys.version.split()[0],
        "fields": "text: input; ftfy: ftfy.fix_text(text); html_unescape: html.unescape(text); "
                  "cleaned: _clean_lower(text); ids: encode(text)",
    },
    "cases": list(cases()),
}, sys.stdout, ensure_ascii=False, indent=None, separators=(",", ":"))
