package io.sam3stream.text;

import java.util.Arrays;

/**
 * The BPE merge list as a lookup from an adjacent pair of symbol ids to the merge's rank (its line order in the
 * merges file: lower merges first) and the id of the merged symbol. An open-addressing table of primitive keys
 * keeps loading fast and lookups free of boxing.
 */
final class MergeTable {

    private static final long EMPTY = -1L;

    private final long[] keys;
    private final int[] ranks;
    private final int[] mergedIds;
    private final int mask;

    /**
     * @param lefts     left symbol id of each merge, in rank order
     * @param rights    right symbol id of each merge
     * @param mergedIds id of the symbol each merge produces
     */
    MergeTable(int[] lefts, int[] rights, int[] mergedIds) {
        if (lefts.length != rights.length || lefts.length != mergedIds.length) {
            throw new IllegalArgumentException("merge arrays differ in length");
        }
        int capacity = Integer.highestOneBit(Math.max(2, lefts.length) * 2) * 2;
        this.keys = new long[capacity];
        this.ranks = new int[capacity];
        this.mask = capacity - 1;
        this.mergedIds = mergedIds.clone();
        Arrays.fill(keys, EMPTY);
        for (int rank = 0; rank < lefts.length; rank++) {
            long key = key(lefts[rank], rights[rank]);
            int slot = slotOf(key);
            // a repeated pair keeps its last rank, as upstream's dict(zip(merges, range(n))) does
            keys[slot] = key;
            ranks[slot] = rank;
        }
    }

    /** Number of merges. */
    int size() {
        return mergedIds.length;
    }

    /** The rank of merging {@code left} then {@code right}, or {@link Integer#MAX_VALUE} when no merge exists. */
    int rank(int left, int right) {
        long key = key(left, right);
        int slot = slotOf(key);
        return keys[slot] == key ? ranks[slot] : Integer.MAX_VALUE;
    }

    /** The id of the symbol that the merge of this rank produces. */
    int mergedId(int rank) {
        return mergedIds[rank];
    }

    private static long key(int left, int right) {
        return ((long) left << 32) | (right & 0xFFFFFFFFL);
    }

    /** The slot holding {@code key}, or the empty slot where it would go (linear probing). */
    private int slotOf(long key) {
        int slot = (int) (mix(key) & mask);
        while (keys[slot] != EMPTY && keys[slot] != key) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private static long mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }
}
