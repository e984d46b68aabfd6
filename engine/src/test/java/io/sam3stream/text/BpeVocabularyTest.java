package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Settings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BpeVocabularyTest {

    /** The merge lines of the bundled file that upstream uses, read independently of the loader. */
    private static List<String> mergeLines;

    @TempDir
    Path dir;

    @BeforeAll
    static void readMergeLines() throws IOException {
        try (InputStream in = BpeVocabulary.class.getResourceAsStream(BpeVocabulary.MERGES_FILE_NAME);
                BufferedReader reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(in),
                        StandardCharsets.UTF_8))) {
            reader.readLine();
            mergeLines = new ArrayList<>();
            for (int i = 0; i < BpeVocabulary.CLIP_MERGE_COUNT; i++) {
                mergeLines.add(reader.readLine());
            }
        }
    }

    @Test
    void bundledVocabularyHasUpstreamSizeAndSpecialIds() {
        BpeVocabulary vocabulary = BpeVocabulary.bundled();
        assertEquals(49408, vocabulary.size());
        assertEquals(49406, vocabulary.startOfTextId());
        assertEquals(49407, vocabulary.endOfTextId());
        assertSame(vocabulary, BpeVocabulary.bundled(), "loaded once and shared");
    }

    @Test
    void huggingFaceFilesGiveTheSameIdsAsTheMergesFile() throws IOException {
        writeHuggingFaceFiles(dir);
        BpeVocabulary fromHf = BpeVocabulary.fromHuggingFaceFiles(dir.resolve("vocab.json"), dir.resolve("merges.txt"));

        assertEquals(49408, fromHf.size());
        assertEquals(49406, fromHf.startOfTextId());
        assertEquals(49407, fromHf.endOfTextId());
        ClipTokenizer hf = new ClipTokenizer(fromHf);
        ClipTokenizer clip = new ClipTokenizer(BpeVocabulary.bundled());
        for (String phrase : TokenizerGolden.phrases()) {
            assertArrayEquals(clip.tokenize(phrase), hf.tokenize(phrase), phrase);
        }
    }

    @Test
    void plainTextMergesFileReadsLikeTheCompressedOne() throws IOException {
        Path plain = dir.resolve("merges-plain.txt");
        Files.write(plain, withHeader(mergeLines), StandardCharsets.UTF_8);

        ClipTokenizer tokenizer = new ClipTokenizer(BpeVocabulary.fromMergesFile(plain));

        assertArrayEquals(new ClipTokenizer(BpeVocabulary.bundled()).tokenize("a photo of a cat"),
                tokenizer.tokenize("a photo of a cat"));
    }

    @Test
    void mergesFileWithTooFewMergesIsRefused() throws IOException {
        Path truncated = dir.resolve(BpeVocabulary.MERGES_FILE_NAME);
        writeGzip(truncated, withHeader(mergeLines.subList(0, 1000)));

        BpeVocabularyException e = assertThrows(BpeVocabularyException.class,
                () -> BpeVocabulary.fromMergesFile(truncated));

        assertTrue(e.getMessage().contains("has 1000 merges, upstream uses 48894"), e.getMessage());
    }

    @Test
    void malformedMergeLineIsRefusedWithItsLineNumber() throws IOException {
        List<String> lines = new ArrayList<>(mergeLines);
        lines.set(4, "three parts here");
        Path broken = dir.resolve("broken.txt.gz");
        writeGzip(broken, withHeader(lines));

        BpeVocabularyException e = assertThrows(BpeVocabularyException.class,
                () -> BpeVocabulary.fromMergesFile(broken));

        assertTrue(e.getMessage().contains("line 6"), e.getMessage());
    }

    @Test
    void huggingFaceVocabularyMissingAMergeResultIsRefused() throws IOException {
        writeHuggingFaceFiles(dir);
        Files.writeString(dir.resolve("merges.txt"), "#version: 0.2\nq z\n");

        BpeVocabularyException e = assertThrows(BpeVocabularyException.class,
                () -> BpeVocabulary.fromHuggingFaceFiles(dir.resolve("vocab.json"), dir.resolve("merges.txt")));

        assertTrue(e.getMessage().contains("no id for merge result 'qz'"), e.getMessage());
    }

    @Test
    void environmentPathWinsOverTheWeightsFolder() throws IOException {
        Path explicit = dir.resolve("explicit");
        Path weights = dir.resolve("weights");
        Files.createDirectories(explicit);
        Files.createDirectories(weights);
        copyBundled(explicit.resolve(BpeVocabulary.MERGES_FILE_NAME));
        copyBundled(weights.resolve(BpeVocabulary.MERGES_FILE_NAME));
        Path explicitFile = explicit.resolve(BpeVocabulary.MERGES_FILE_NAME);

        BpeVocabulary vocabulary = BpeVocabulary.fromSettings(
                Settings.from(Map.of("SAM3_BPE_PATH", explicitFile.toString())), Optional.of(weights));

        assertEquals(explicitFile.toString(), vocabulary.source());
    }

    @Test
    void environmentPathMayNameAFolder() throws IOException {
        copyBundled(dir.resolve(BpeVocabulary.MERGES_FILE_NAME));

        BpeVocabulary vocabulary = BpeVocabulary.fromSettings(
                Settings.from(Map.of("SAM3_BPE_PATH", dir.toString())), Optional.empty());

        assertEquals(dir.resolve(BpeVocabulary.MERGES_FILE_NAME).toString(), vocabulary.source());
    }

    @Test
    void missingEnvironmentPathIsAnErrorNotAFallback() {
        Path missing = dir.resolve("nowhere.txt.gz");

        BpeVocabularyException e = assertThrows(BpeVocabularyException.class,
                () -> BpeVocabulary.fromSettings(Settings.from(Map.of("SAM3_BPE_PATH", missing.toString())),
                        Optional.empty()));

        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void weightsFolderMergesFileIsPreferredToItsHuggingFaceFiles() throws IOException {
        writeHuggingFaceFiles(dir);
        copyBundled(dir.resolve(BpeVocabulary.MERGES_FILE_NAME));

        BpeVocabulary vocabulary = BpeVocabulary.fromSettings(Settings.from(Map.of()), Optional.of(dir));

        assertEquals(dir.resolve(BpeVocabulary.MERGES_FILE_NAME).toString(), vocabulary.source());
    }

    @Test
    void weightsFolderHuggingFaceFilesAreUsedWhenThatIsWhatItHas() throws IOException {
        writeHuggingFaceFiles(dir);

        BpeVocabulary vocabulary = BpeVocabulary.fromSettings(Settings.from(Map.of()), Optional.of(dir));

        assertEquals(dir.resolve("vocab.json") + " + " + dir.resolve("merges.txt"), vocabulary.source());
    }

    @Test
    void bundledCopyIsTheFallback() {
        assertSame(BpeVocabulary.bundled(), BpeVocabulary.fromSettings(Settings.from(Map.of()), Optional.of(dir)));
        assertSame(BpeVocabulary.bundled(),
                BpeVocabulary.fromSettings(Settings.from(Map.of("SAM3_BPE_PATH", " ")), Optional.empty()));
    }

    /**
     * Writes a Hugging Face CLIP tokenizer's {@code vocab.json} and {@code merges.txt} derived from upstream's merges
     * file by upstream's id rule, with the specials under Hugging Face's names.
     */
    private static void writeHuggingFaceFiles(Path folder) throws IOException {
        Map<String, Integer> vocab = new LinkedHashMap<>();
        char[] bytes = ByteLevelAlphabet.vocabularyOrder();
        for (int i = 0; i < bytes.length; i++) {
            vocab.put(String.valueOf(bytes[i]), i);
        }
        for (int i = 0; i < bytes.length; i++) {
            vocab.put(bytes[i] + "</w>", 256 + i);
        }
        for (String merge : mergeLines) {
            vocab.put(merge.replace(" ", ""), vocab.size());
        }
        vocab.put("<|startoftext|>", vocab.size());
        vocab.put("<|endoftext|>", vocab.size());
        new ObjectMapper().writeValue(folder.resolve("vocab.json").toFile(), vocab);
        Files.write(folder.resolve("merges.txt"), withHeader(mergeLines), StandardCharsets.UTF_8);
    }

    private static List<String> withHeader(List<String> merges) {
        List<String> lines = new ArrayList<>();
        lines.add("#version: 0.2");
        lines.addAll(merges);
        return lines;
    }

    private static void writeGzip(Path file, List<String> lines) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void copyBundled(Path target) throws IOException {
        try (InputStream in = BpeVocabulary.class.getResourceAsStream(BpeVocabulary.MERGES_FILE_NAME)) {
            Files.copy(in, target);
        }
    }
}
