package io.sam3stream.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CLIP's byte-level BPE on one word (upstream {@code SimpleTokenizer.bpe}): the word's UTF-8 bytes become byte
 * symbols, the last one word-final ({@code </w>}); then, repeatedly, the adjacent pair with the lowest merge rank is
 * merged everywhere it occurs, left to right, until no adjacent pair has a merge. Symbols are handled by id, which is
 * equivalent to upstream's string symbols because every symbol is a vocabulary entry.
 *
 * <p>Results are cached per word, as upstream does; the cache is bounded (cleared when full) so that a long-running
 * service cannot grow it without limit. Thread-safe.
 */
final class BytePairEncoder {

    /** Words kept in the cache before it is cleared; prompts are short and repetitive, so hits stay high. */
    private static final int CACHE_CAPACITY = 16_384;

    private final BpeVocabulary vocabulary;
    private final MergeTable merges;
    private final Map<String, int[]> cache = new ConcurrentHashMap<>();

    BytePairEncoder(BpeVocabulary vocabulary) {
        this.vocabulary = vocabulary;
        this.merges = vocabulary.merges();
    }

    /** The token ids of one pre-tokenised word (never empty). The array is shared: callers must not modify it. */
    int[] encode(String word) {
        int[] cached = cache.get(word);
        if (cached != null) {
            return cached;
        }
        int[] ids = merge(word.getBytes(StandardCharsets.UTF_8));
        if (cache.size() >= CACHE_CAPACITY) {
            cache.clear();
        }
        cache.put(word, ids);
        return ids;
    }

    private int[] merge(byte[] bytes) {
        int length = bytes.length;
        int[] symbols = new int[length];
        for (int i = 0; i < length - 1; i++) {
            symbols[i] = vocabulary.byteId(bytes[i]);
        }
        symbols[length - 1] = vocabulary.wordFinalByteId(bytes[length - 1]);
        while (length > 1) {
            int bestRank = Integer.MAX_VALUE;
            for (int i = 0; i + 1 < length; i++) {
                bestRank = Math.min(bestRank, merges.rank(symbols[i], symbols[i + 1]));
            }
            if (bestRank == Integer.MAX_VALUE) {
                break;
            }
            length = mergeAll(symbols, length, bestRank);
        }
        return Arrays.copyOf(symbols, length);
    }

    /** Replaces every non-overlapping occurrence (left to right) of the pair of this rank; returns the new length. */
    private int mergeAll(int[] symbols, int length, int rank) {
        int merged = merges.mergedId(rank);
        int out = 0;
        for (int i = 0; i < length; ) {
            if (i + 1 < length && merges.rank(symbols[i], symbols[i + 1]) == rank) {
                symbols[out++] = merged;
                i += 2;
            } else {
                symbols[out++] = symbols[i++];
            }
        }
        return out;
    }
}
