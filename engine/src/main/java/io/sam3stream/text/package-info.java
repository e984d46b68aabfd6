/**
 * SAM3's text tokenizer (docs/MODEL.md §5.1), reproducing upstream's
 * {@code sam3/model/tokenizer_ve.py::SimpleTokenizer} with {@code clean="lower"} id for id.
 *
 * <p>Public entry points: {@link io.sam3stream.text.BpeVocabulary} (the id table, loaded from upstream's merges file
 * or a Hugging Face {@code vocab.json} + {@code merges.txt}, located through the environment) and
 * {@link io.sam3stream.text.ClipTokenizer} (text to 32 ids and the padding mask). Everything else is the pipeline
 * behind {@code ClipTokenizer}, each class one upstream step:
 * <ol>
 *   <li>{@code TextCleaner}: ftfy's {@code fix_text} ({@code TextFixer}, with {@code HtmlEntities},
 *       {@code MojibakeRepair}, {@code MojibakeDetector}, {@code SingleByteCharmap}, {@code Utf8VariantsDecoder} and
 *       {@code CharacterFixes}), Python's {@code html.unescape} twice, whitespace collapsing and Python's
 *       lower-casing ({@code PythonText});</li>
 *   <li>{@code WordSplitter}: upstream's pre-tokenisation regular expression;</li>
 *   <li>{@code BytePairEncoder}: byte-level BPE over {@code ByteLevelAlphabet} symbols and the {@code MergeTable}.</li>
 * </ol>
 *
 * <p>Upstream runs on Python's Unicode tables and Java 17 on Unicode 13: characters assigned after Unicode 13 may be
 * classified differently (letter or not, case, normalisation). Nothing here depends on the model or on DJL.
 */
package io.sam3stream.text;
