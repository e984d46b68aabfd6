package io.sam3stream.text;

import java.util.Arrays;

/**
 * SAM3's text tokenizer (upstream {@code sam3/model/tokenizer_ve.py::SimpleTokenizer} with {@code clean="lower"};
 * docs/MODEL.md §5.1): CLIP's byte-level BPE over cleaned, pre-tokenised text, framed by start/end-of-text and
 * zero-padded to the context length. Thread-safe; build one per vocabulary and share it.
 */
public final class ClipTokenizer {

    /** Context length of SAM3's text encoder. */
    public static final int CONTEXT_LENGTH = 32;

    /** Upstream's name of the start-of-text token, also recognised literally in the text. */
    static final String START_OF_TEXT = "<start_of_text>";

    /** Upstream's name of the end-of-text token, also recognised literally in the text. */
    static final String END_OF_TEXT = "<end_of_text>";

    /** Padding id. Id 0 is also the byte symbol "!", yet downstream treats every 0 as padding (docs/MODEL.md §5.1). */
    public static final int PAD_ID = 0;

    private final BpeVocabulary vocabulary;
    private final BytePairEncoder bytePairEncoder;

    public ClipTokenizer(BpeVocabulary vocabulary) {
        this.vocabulary = vocabulary;
        this.bytePairEncoder = new BytePairEncoder(vocabulary);
    }

    /** The BPE ids of a text, without start/end-of-text and without truncation (upstream's {@code encode}). */
    public int[] encode(String text) {
        int[] ids = new int[16];
        int count = 0;
        for (String piece : WordSplitter.split(TextCleaner.clean(text))) {
            int[] pieceIds = WordSplitter.isSpecialToken(piece) ? new int[] {specialId(piece)}
                    : bytePairEncoder.encode(piece);
            if (count + pieceIds.length > ids.length) {
                ids = Arrays.copyOf(ids, Math.max(2 * ids.length, count + pieceIds.length));
            }
            System.arraycopy(pieceIds, 0, ids, count, pieceIds.length);
            count += pieceIds.length;
        }
        return Arrays.copyOf(ids, count);
    }

    /** The {@value #CONTEXT_LENGTH} ids SAM3's text encoder is fed for a prompt. */
    public int[] tokenize(String text) {
        return tokenize(text, CONTEXT_LENGTH);
    }

    /**
     * Upstream's {@code tokenizer([text], context_length)[0]}: start-of-text, the BPE ids, end-of-text; cut to the
     * context length with end-of-text in the last position when too long; right-padded with {@link #PAD_ID}.
     */
    public int[] tokenize(String text, int contextLength) {
        if (contextLength < 2) {
            throw new IllegalArgumentException("context length must leave room for start and end of text: "
                    + contextLength);
        }
        int[] bpeIds = encode(text);
        int[] ids = new int[contextLength];
        ids[0] = vocabulary.startOfTextId();
        int kept = Math.min(bpeIds.length, contextLength - 2);
        System.arraycopy(bpeIds, 0, ids, 1, kept);
        ids[1 + kept] = vocabulary.endOfTextId();
        return ids;
    }

    /**
     * Upstream's {@code language_mask = ids == 0}: true where a position is padding. A genuine id 0 ("!" inside a
     * word, as in "!?") is treated as padding too, exactly as upstream does.
     */
    public static boolean[] paddingMask(int[] ids) {
        boolean[] mask = new boolean[ids.length];
        for (int i = 0; i < ids.length; i++) {
            mask[i] = ids[i] == PAD_ID;
        }
        return mask;
    }

    private int specialId(String piece) {
        return piece.equals(START_OF_TEXT) ? vocabulary.startOfTextId() : vocabulary.endOfTextId();
    }
}
