package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FeatureCacheTest {

    /** A cached value that records whether the cache closed it. */
    private static final class Value implements AutoCloseable {
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void makingRoomEvictsWhatTheNextPutWouldHaveEvicted() {
        Value a = new Value();
        Value b = new Value();
        Value c = new Value();
        try (FeatureCache<String, Value> cache = new FeatureCache<>(2)) {
            cache.put("a", a);
            cache.put("b", b);
            cache.get("a"); // b is now the least recently used
            cache.makeRoom();
            assertTrue(b.closed);
            assertFalse(a.closed);
            assertNull(cache.get("b"));
            assertEquals(1, cache.size());
            cache.put("c", c);
            assertEquals(2, cache.size());
            assertSame(a, cache.get("a"));
            assertSame(c, cache.get("c"));
        }
        assertTrue(a.closed && c.closed);
    }

    @Test
    void makingRoomInACacheWithSpaceOrWithoutCapacityEvictsNothing() {
        Value a = new Value();
        try (FeatureCache<String, Value> roomy = new FeatureCache<>(2);
                FeatureCache<String, Value> none = new FeatureCache<>(0)) {
            roomy.put("a", a);
            roomy.makeRoom();
            none.makeRoom();
            assertFalse(a.closed);
            assertSame(a, roomy.get("a"));
            assertEquals(0, none.size());
        }
    }
}
