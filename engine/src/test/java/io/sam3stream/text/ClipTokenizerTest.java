package io.sam3stream.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ClipTokenizerTest {

    private static final int SOT = 49406;
    private static final int EOT = 49407;
    private static final int A = 320;

    private final ClipTokenizer tokenizer = new ClipTokenizer(BpeVocabulary.bundled());

    /** The test vectors of docs/MODEL.md §5.1. */
    @Test
    void specVectorsArePaddedWithZeros() {
        assertArrayEquals(padded(SOT, 320, 1929, EOT), tokenizer.tokenize("a dog"));
        assertArrayEquals(padded(SOT, 4481, 1228, 2840, EOT), tokenizer.tokenize("yellow school bus"));
        assertArrayEquals(padded(SOT, 2533, EOT), tokenizer.tokenize("person"));
        assertArrayEquals(padded(SOT, 736, 3346, 256, EOT), tokenizer.tokenize("Red  Cars!"));
        assertArrayEquals(padded(SOT, 7195, EOT), tokenizer.tokenize("visual"));
    }

    @Test
    void emptyTextIsStartAndEndOfText() {
        assertArrayEquals(padded(SOT, EOT), tokenizer.tokenize(""));
        assertArrayEquals(padded(SOT, EOT), tokenizer.tokenize(" \u00A0\t"));
    }

    @Test
    void thirtyWordsFitExactly() {
        int[] ids = tokenizer.tokenize(words(30));

        assertEquals(SOT, ids[0]);
        assertEquals(A, ids[30]);
        assertEquals(EOT, ids[31]);
    }

    @Test
    void longerTextIsCutWithEndOfTextLast() {
        int[] ids = tokenizer.tokenize(words(31));

        int[] expected = new int[32];
        Arrays.fill(expected, A);
        expected[0] = SOT;
        expected[31] = EOT;
        assertArrayEquals(expected, ids);
        assertEquals(33, tokenizer.encode(words(31) + " a b").length, "encode does not truncate");
    }

    @Test
    void otherContextLengthsFrameTheSameWay() {
        assertArrayEquals(new int[] {SOT, A, A, EOT}, tokenizer.tokenize(words(5), 4));
        assertArrayEquals(new int[] {SOT, A, EOT, 0, 0}, tokenizer.tokenize(words(1), 5));
        assertThrows(IllegalArgumentException.class, () -> tokenizer.tokenize("a", 1));
    }

    @Test
    void literalSpecialTokensInTheTextMapToTheirIds() {
        assertArrayEquals(padded(SOT, 2368, EOT, 1929, EOT), tokenizer.tokenize("cat<END_OF_TEXT>dog"));
    }

    @Test
    void paddingMaskIsEveryZeroIdIncludingAGenuineExclamationMark() {
        int[] ids = tokenizer.tokenize("!}");
        assertArrayEquals(padded(SOT, 0, 348, EOT), ids, "'!' inside a word keeps its byte id 0");

        boolean[] mask = ClipTokenizer.paddingMask(ids);

        assertEquals(true, mask[1], "upstream treats that id as padding too");
        assertEquals(false, mask[2]);
        assertEquals(false, mask[3]);
        for (int i = 4; i < 32; i++) {
            assertEquals(true, mask[i]);
        }
    }

    @Test
    void concurrentCallersGetTheSameIdsAsOneCaller() throws Exception {
        List<String> phrases = TokenizerGolden.phrases();
        ClipTokenizer shared = new ClipTokenizer(BpeVocabulary.bundled());
        List<Callable<List<int[]>>> workers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            List<String> order = new ArrayList<>(phrases);
            Collections.shuffle(order, new java.util.Random(w));
            workers.add(() -> {
                List<int[]> results = new ArrayList<>();
                for (String phrase : order) {
                    results.add(shared.tokenize(phrase));
                }
                return results;
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<int[]>>> futures = pool.invokeAll(workers);
            for (int w = 0; w < workers.size(); w++) {
                List<String> order = new ArrayList<>(phrases);
                Collections.shuffle(order, new java.util.Random(w));
                List<int[]> results = futures.get(w).get();
                for (int i = 0; i < order.size(); i++) {
                    assertArrayEquals(tokenizer.tokenize(order.get(i)), results.get(i), order.get(i));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String words(int count) {
        return String.join(" ", Collections.nCopies(count, "a"));
    }

    private static int[] padded(int... ids) {
        return Arrays.copyOf(ids, ClipTokenizer.CONTEXT_LENGTH);
    }
}
