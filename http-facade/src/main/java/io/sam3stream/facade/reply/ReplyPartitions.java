package io.sam3stream.facade.reply;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reply partitions this facade instance reads, hence may name in a request. A partition is added only once
 * the reply consumer is assigned to it and positioned, so that no reply produced after a request can be missed,
 * and removed the moment it is revoked. Requests are spread over the owned partitions in turn.
 */
public final class ReplyPartitions {

    private volatile int[] owned = new int[0];
    private final AtomicInteger turn = new AtomicInteger();

    /** Partitions now read and positioned. */
    public synchronized void add(Collection<Integer> partitions) {
        TreeSet<Integer> set = current();
        set.addAll(partitions);
        owned = set.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Partitions no longer read. */
    public synchronized void remove(Collection<Integer> partitions) {
        TreeSet<Integer> set = current();
        set.removeAll(partitions);
        owned = set.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The partition for the next request, empty while none is owned. */
    public OptionalInt next() {
        int[] snapshot = owned;
        if (snapshot.length == 0) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(snapshot[Math.floorMod(turn.getAndIncrement(), snapshot.length)]);
    }

    /** Whether the partition is owned now. */
    public boolean owns(int partition) {
        for (int p : owned) {
            if (p == partition) {
                return true;
            }
        }
        return false;
    }

    /** The owned partitions, ascending. */
    public List<Integer> owned() {
        return Arrays.stream(owned).boxed().toList();
    }

    private TreeSet<Integer> current() {
        TreeSet<Integer> set = new TreeSet<>();
        for (int p : owned) {
            set.add(p);
        }
        return set;
    }
}
