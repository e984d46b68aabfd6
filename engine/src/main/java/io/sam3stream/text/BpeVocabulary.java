package io.sam3stream.text;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * SAM3's CLIP BPE vocabulary: the ids of the 256 byte symbols (plain and word-final), the ranked merges with the ids
 * they produce, and the start/end-of-text ids (docs/MODEL.md §5.1). Immutable and safe to share between threads.
 *
 * <p>It loads from either form that carries the same table: upstream's merges file
 * ({@code bpe_simple_vocab_16e6.txt.gz}, ids implied by the merge order) or a Hugging Face snapshot's
 * {@code vocab.json} + {@code merges.txt} (ids explicit, specials named {@code <|startoftext|>} and
 * {@code <|endoftext|>}).
 */
public final class BpeVocabulary {

    /** File name of upstream's merges file, in a weights folder and in this project's resources. */
    public static final String MERGES_FILE_NAME = "bpe_simple_vocab_16e6.txt.gz";

    private static final String HF_VOCAB_FILE_NAME = "vocab.json";
    private static final String HF_MERGES_FILE_NAME = "merges.txt";

    /** Merges upstream takes from its file: {@code lines[1 : 49152 - 256 - 2 + 1]}. */
    static final int CLIP_MERGE_COUNT = 49152 - 256 - 2;

    private static final String END_OF_WORD = "</w>";

    private final String source;
    private final int size;
    private final int[] byteIds = new int[256];
    private final int[] wordFinalByteIds = new int[256];
    private final MergeTable merges;
    private final int startOfTextId;
    private final int endOfTextId;

    private BpeVocabulary(String source, Map<String, Integer> idOf, List<Merge> mergeList, String startOfText,
            String endOfText) {
        this.source = source;
        this.size = idOf.values().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        for (int b = 0; b < 256; b++) {
            String symbol = String.valueOf(ByteLevelAlphabet.symbolOf((byte) b));
            byteIds[b] = requireId(idOf, symbol, "byte symbol");
            wordFinalByteIds[b] = requireId(idOf, symbol + END_OF_WORD, "byte symbol");
        }
        int[] lefts = new int[mergeList.size()];
        int[] rights = new int[mergeList.size()];
        int[] merged = new int[mergeList.size()];
        for (int rank = 0; rank < mergeList.size(); rank++) {
            Merge merge = mergeList.get(rank);
            lefts[rank] = requireId(idOf, merge.left(), "merge part");
            rights[rank] = requireId(idOf, merge.right(), "merge part");
            merged[rank] = requireId(idOf, merge.merged(), "merge result");
        }
        this.merges = new MergeTable(lefts, rights, merged);
        this.startOfTextId = requireId(idOf, startOfText, "special token");
        this.endOfTextId = requireId(idOf, endOfText, "special token");
    }

    private int requireId(Map<String, Integer> idOf, String symbol, String role) {
        Integer id = idOf.get(symbol);
        if (id == null) {
            throw new BpeVocabularyException(source + ": no id for " + role + " '" + symbol + "'");
        }
        return id;
    }

    /**
     * Reads upstream's merges file (gzip-compressed as shipped, or plain text): a header line, then one merge
     * {@code "left right"} per line, of which the first {@value #CLIP_MERGE_COUNT} are used. Ids follow upstream's
     * construction: the 256 byte symbols, the same with {@code </w>}, one per merge, then {@code <start_of_text>}
     * (49406) and {@code <end_of_text>} (49407).
     */
    public static BpeVocabulary fromMergesFile(Path mergesFile) {
        try (InputStream in = Files.newInputStream(mergesFile)) {
            return fromMergesStream(in, mergesFile.toString());
        } catch (IOException e) {
            throw new BpeVocabularyException("cannot read BPE merges file " + mergesFile + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a Hugging Face CLIP tokenizer's {@code vocab.json} (symbol to id) and {@code merges.txt} (an optional
     * {@code #version} header, then one merge per line in rank order).
     */
    public static BpeVocabulary fromHuggingFaceFiles(Path vocabJson, Path mergesTxt) {
        String source = vocabJson + " + " + mergesTxt;
        Map<String, Integer> idOf;
        List<Merge> mergeList = new ArrayList<>();
        try {
            idOf = new ObjectMapper().readValue(vocabJson.toFile(), new TypeReference<HashMap<String, Integer>>() {});
            try (BufferedReader reader = Files.newBufferedReader(mergesTxt, StandardCharsets.UTF_8)) {
                String line;
                int lineNumber = 0;
                while ((line = reader.readLine()) != null) {
                    lineNumber++;
                    if (!line.isEmpty() && !(lineNumber == 1 && line.startsWith("#version"))) {
                        mergeList.add(Merge.parse(line, lineNumber, mergesTxt.toString()));
                    }
                }
            }
        } catch (IOException e) {
            throw new BpeVocabularyException("cannot read Hugging Face tokenizer files " + source + ": "
                    + e.getMessage(), e);
        }
        return new BpeVocabulary(source, idOf, mergeList, "<|startoftext|>", "<|endoftext|>");
    }

    /**
     * The vocabulary in a folder: upstream's merges file when present, else a Hugging Face {@code vocab.json} +
     * {@code merges.txt} pair, else empty.
     */
    public static Optional<BpeVocabulary> fromFolder(Path folder) {
        Path merges = folder.resolve(MERGES_FILE_NAME);
        if (Files.isRegularFile(merges)) {
            return Optional.of(fromMergesFile(merges));
        }
        Path vocabJson = folder.resolve(HF_VOCAB_FILE_NAME);
        Path mergesTxt = folder.resolve(HF_MERGES_FILE_NAME);
        if (Files.isRegularFile(vocabJson) && Files.isRegularFile(mergesTxt)) {
            return Optional.of(fromHuggingFaceFiles(vocabJson, mergesTxt));
        }
        return Optional.empty();
    }

    /** A merges file, or a folder holding either form (see {@link #fromFolder}). */
    public static BpeVocabulary fromPath(Path path) {
        if (Files.isDirectory(path)) {
            return fromFolder(path).orElseThrow(() -> new BpeVocabularyException("no BPE vocabulary in " + path
                    + ": expected " + MERGES_FILE_NAME + " or " + HF_VOCAB_FILE_NAME + " + " + HF_MERGES_FILE_NAME));
        }
        if (!Files.isRegularFile(path)) {
            throw new BpeVocabularyException("BPE vocabulary not found: " + path);
        }
        return fromMergesFile(path);
    }

    /** The copy of upstream's merges file that ships with this project, loaded once per JVM. */
    public static BpeVocabulary bundled() {
        return Bundled.INSTANCE;
    }

    /**
     * The vocabulary SAM3 uses with these settings, first found of: {@code SAM3_BPE_PATH} (a merges file or a
     * folder), the weights folder (either form), the bundled copy.
     *
     * @param weightsFolder the folder the checkpoint was resolved from, if any
     */
    public static BpeVocabulary fromSettings(Settings settings, Optional<Path> weightsFolder) {
        String explicit = settings.get(Knob.SAM3_BPE_PATH);
        if (explicit != null && !explicit.isBlank()) {
            return fromPath(Path.of(explicit));
        }
        return weightsFolder.flatMap(BpeVocabulary::fromFolder).orElseGet(BpeVocabulary::bundled);
    }

    private static BpeVocabulary fromMergesStream(InputStream raw, String source) throws IOException {
        InputStream in = new BufferedInputStream(raw, 1 << 16);
        if (isGzip(in)) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        if (reader.readLine() == null) {
            throw new BpeVocabularyException(source + ": empty merges file");
        }
        // upstream's id order: byte symbols, word-final byte symbols, one id per merge, the two specials; a later
        // entry with an equal string replaces the earlier one, as in upstream's dict(zip(vocab, range(n)))
        Map<String, Integer> idOf = new HashMap<>(2 * (2 * 256 + CLIP_MERGE_COUNT + 2));
        char[] byteSymbols = ByteLevelAlphabet.vocabularyOrder();
        for (int i = 0; i < 256; i++) {
            idOf.put(String.valueOf(byteSymbols[i]), i);
            idOf.put(byteSymbols[i] + END_OF_WORD, 256 + i);
        }
        List<Merge> mergeList = new ArrayList<>(CLIP_MERGE_COUNT);
        for (int rank = 0; rank < CLIP_MERGE_COUNT; rank++) {
            String line = reader.readLine();
            if (line == null) {
                throw new BpeVocabularyException(source + ": has " + rank + " merges, upstream uses "
                        + CLIP_MERGE_COUNT);
            }
            Merge merge = Merge.parse(line, rank + 2, source);
            mergeList.add(merge);
            idOf.put(merge.merged(), 2 * 256 + rank);
        }
        idOf.put(ClipTokenizer.START_OF_TEXT, 2 * 256 + CLIP_MERGE_COUNT);
        idOf.put(ClipTokenizer.END_OF_TEXT, 2 * 256 + CLIP_MERGE_COUNT + 1);
        return new BpeVocabulary(source, idOf, mergeList, ClipTokenizer.START_OF_TEXT, ClipTokenizer.END_OF_TEXT);
    }

    private static boolean isGzip(InputStream in) throws IOException {
        in.mark(2);
        int first = in.read();
        int second = in.read();
        in.reset();
        return first == 0x1F && second == 0x8B;
    }

    /** Where this vocabulary was read from. */
    public String source() {
        return source;
    }

    /** Number of token ids (49408 for SAM3). */
    public int size() {
        return size;
    }

    /** Id of the start-of-text token (49406 for SAM3). */
    public int startOfTextId() {
        return startOfTextId;
    }

    /** Id of the end-of-text token (49407 for SAM3). */
    public int endOfTextId() {
        return endOfTextId;
    }

    /** Id of the symbol of one byte inside a word. */
    int byteId(byte b) {
        return byteIds[b & 0xFF];
    }

    /** Id of the symbol of one byte that ends a word ({@code </w>} appended). */
    int wordFinalByteId(byte b) {
        return wordFinalByteIds[b & 0xFF];
    }

    MergeTable merges() {
        return merges;
    }

    @Override
    public String toString() {
        return "BpeVocabulary[" + source + ", " + size + " ids, " + merges.size() + " merges]";
    }

    /** One line of a merges file: two adjacent symbols and the symbol merging them makes. */
    private record Merge(String left, String right, String merged) {

        static Merge parse(String line, int lineNumber, String source) {
            int space = line.indexOf(' ');
            if (space <= 0 || space == line.length() - 1 || line.indexOf(' ', space + 1) >= 0) {
                throw new BpeVocabularyException(source + ": line " + lineNumber + " is not a merge \"left right\": "
                        + line);
            }
            String left = line.substring(0, space);
            String right = line.substring(space + 1);
            return new Merge(left, right, left + right);
        }
    }

    /** Holder for the bundled vocabulary: loaded on first use, thread-safe by class initialisation. */
    private static final class Bundled {
        static final BpeVocabulary INSTANCE = load();

        private static BpeVocabulary load() {
            String resource = MERGES_FILE_NAME;
            try (InputStream in = BpeVocabulary.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new BpeVocabularyException("bundled resource missing: " + resource);
                }
                return fromMergesStream(in, "bundled " + resource);
            } catch (IOException e) {
                throw new BpeVocabularyException("cannot read bundled " + resource + ": " + e.getMessage(), e);
            }
        }
    }
}
