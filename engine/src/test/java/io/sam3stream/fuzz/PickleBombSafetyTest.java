package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.PickleBuilder;
import io.sam3stream.weights.PytorchCheckpoint;
import io.sam3stream.weights.TorchArchiveBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pickles that stay within the allowed globals but describe more than the file holds: the memo lets a few bytes
 * build cyclic or exponentially shared structures (the pickle form of a billion-laughs bomb), and a tensor's
 * storage and view carry sizes of their own. Each is refused with a bounded message, within the time limit and
 * without allocating what it describes.
 */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PickleBombSafetyTest {

    private static final long ALLOCATION_BUDGET = 8L << 20;

    private static final int EMPTY_LIST = ']';
    private static final int BINPUT = 'q';
    private static final int BINGET = 'h';
    private static final int APPEND = 'a';
    private static final int DUP = '2';
    private static final int TUPLE2 = 0x86;
    private static final int BINPERSID = 'Q';
    private static final int SETITEM = 's';
    private static final int STOP = '.';

    @TempDir
    Path dir;

    private String refusal(byte[] pickle) throws IOException {
        Path file = new TorchArchiveBuilder("bomb").pickle(pickle).floatStorage("0", 0, 1, 2, 3, 4, 5)
                .writeTo(dir.resolve("bomb.pt"));
        openAndReadAll(file); // loads the classes unmeasured
        return AllocationBudget.assertAtMost(ALLOCATION_BUDGET, () -> openAndReadAll(file)).getMessage();
    }

    private static CheckpointException openAndReadAll(Path file) {
        return assertThrows(CheckpointException.class, () -> {
            try (PytorchCheckpoint checkpoint = PytorchCheckpoint.open(file)) {
                checkpoint.names().forEach(checkpoint::get);
            }
        });
    }

    private static void assertMentions(String message, String expected) {
        assertTrue(message.contains(expected), message);
        assertTrue(message.length() < 1000, "unbounded message of " + message.length() + " characters");
    }

    /** A list that contains itself: {@code l = []; l.append(l)}. */
    private static PickleBuilder selfContainingList(PickleBuilder pickle) {
        return pickle.op(EMPTY_LIST).op(BINPUT).op(0).op(BINGET).op(0).op(APPEND);
    }

    /** {@code t0 = (); t(k+1) = (tk, tk)}: 2^levels leaves in a few bytes. */
    private static PickleBuilder exponentialTuple(PickleBuilder pickle, int levels) {
        pickle.op(')');
        for (int i = 0; i < levels; i++) {
            pickle.op(DUP).op(TUPLE2);
        }
        return pickle;
    }

    @Test
    void refusesAListAsADictKey() throws IOException {
        // Python refuses unhashable keys; hashing a self-containing list never ends
        byte[] pickle = selfContainingList(new PickleBuilder().proto(2).op('}')).op('N').op(SETITEM).op(STOP).bytes();
        assertMentions(refusal(pickle), "as a dict key");
    }

    @Test
    void refusesATupleAsADictKey() throws IOException {
        byte[] pickle = exponentialTuple(new PickleBuilder().proto(2).op('}'), 64).op('N').op(SETITEM).op(STOP)
                .bytes();
        assertMentions(refusal(pickle), "as a dict key");
    }

    @Test
    void describesAnExponentiallySharedPersistentIdWithoutExpandingIt() throws IOException {
        byte[] pickle = exponentialTuple(new PickleBuilder().proto(2), 64).op(BINPERSID).op(STOP).bytes();
        assertMentions(refusal(pickle), "unsupported persistent id");
    }

    @Test
    void describesACyclicPersistentIdWithoutEndlessRecursion() throws IOException {
        // a = []; b = [a]; a.append(b): a cycle through two lists
        byte[] pickle = new PickleBuilder().proto(2).op(EMPTY_LIST).op(BINPUT).op(0).op(EMPTY_LIST)
                .op(BINGET).op(0).op(APPEND).op(APPEND).op(BINPERSID).op(STOP).bytes();
        assertMentions(refusal(pickle), "unsupported persistent id");
    }

    @Test
    void describesExponentiallySharedTensorArgumentsWithoutExpandingThem() throws IOException {
        PickleBuilder pickle = new PickleBuilder().proto(2).global("torch._utils", "_rebuild_tensor_v2").mark();
        exponentialTuple(pickle, 64).integer(0).intTuple(1).intTuple(1).op(0x89).op('}').op('t').op('R').op(STOP);
        assertMentions(refusal(pickle.bytes()), "unexpected arguments to _rebuild_tensor_v2");
    }

    @Test
    void refusesAStorageClaimingMoreElementsThanItsBytes() throws IOException {
        // ('storage', torch.FloatStorage, '0', 'cpu', 2**62) over the 24 bytes of six floats
        PickleBuilder pickle = new PickleBuilder().proto(2).op('}').string("w")
                .global("torch._utils", "_rebuild_tensor_v2").mark()
                .mark().string("storage").global("torch", "FloatStorage").string("0").string("cpu");
        long1(pickle, 1L << 62).op('t').op(BINPERSID)
                .integer(0).intTuple(6).intTuple(1).op(0x89).op('}').op('t').op('R').op(SETITEM).op(STOP);
        assertMentions(refusal(pickle.bytes()), "storage 0 claims 4611686018427387904 elements");
    }

    @Test
    void refusesABroadcastViewWithMoreElementsThanItsStorage() throws IOException {
        // stride 0 repeats one float 2^28 times: a 1 GiB tensor from a 4-byte storage
        byte[] pickle = new PickleBuilder().proto(2).op('}').string("w")
                .tensor("FloatStorage", "0", 6, 0, new long[] {1 << 28}, new long[] {0}).op(SETITEM).op(STOP).bytes();
        assertMentions(refusal(pickle), "has more elements than its storage");
    }

    /** LONG1: an 8-byte little-endian integer, for values beyond BININT's 32 bits. */
    private static PickleBuilder long1(PickleBuilder pickle, long value) {
        return pickle.op(0x8a).op(8).raw(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
    }
}
