package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnpicklerTest {

    /**
     * CPython 3.11 {@code pickle.dumps(value, protocol)} of
     * <pre>
     * shared = [1]
     * value = {'ints': [0, 255, 65535, -1, 2**31, -2**40, 2**63-1, -2**63], 'float': 2.5, 'neg': -0.125,
     *          'text': 'héllo ☃', 'tuple': (None, True, False),
     *          'nested': {'a': (), 'b': [1, (2,), (3, 4), (5, 6, 7), (8, 9, 10, 11)]}, 'x': shared, 'y': shared}
     * </pre>
     * and, for protocol 5, also {@code 'bytes': b'\x00\x01\xff'}.
     */
    private static final String PROTOCOL_2 = "80027d7100285804000000696e747371015d7102284b004bff4dffff4affffffff8a05"
            + "00000080008a060000000000ff8a08ffffffffffffff7f8a080000000000000080655805000000666c6f6174710347400400"
            + "000000000058030000006e6567710447bfc00000000000005804000000746578747105580a00000068c3a96c6c6f20e29883"
            + "710658050000007475706c6571074e888987710858060000006e657374656471097d710a28580100000061710b2958010000"
            + "0062710c5d710d284b014b0285710e4b034b0486710f4b054b064b07877110284b084b094b0a4b0b74711165755801000000"
            + "7871125d71134b016158010000007971146813752e";
    private static final String PROTOCOL_5 = "800595d6000000000000007d94288c04696e7473945d94284b004bff4dffff4aff"
            + "ffffff8a0500000080008a060000000000ff8a08ffffffffffffff7f8a080000000000000080658c05666c6f61749447400400"
            + "00000000008c036e65679447bfc00000000000008c0474657874948c0a68c3a96c6c6f20e29883948c057475706c65944e88"
            + "8987948c066e6573746564947d94288c016194298c0162945d94284b014b0285944b034b0486944b054b064b078794284b08"
            + "4b094b0a4b0b749465758c0178945d944b01618c01799468138c0562797465739443030001ff94752e";

    private static Object load(byte[] pickle) {
        return Unpickler.load(ByteBuffer.wrap(pickle), Map.of(), pid -> {
            throw new AssertionError("no persistent ids expected");
        });
    }

    private static void assertPythonValue(Map<?, ?> value) {
        assertEquals(List.of(0L, 255L, 65535L, -1L, 1L << 31, -(1L << 40), Long.MAX_VALUE, Long.MIN_VALUE),
                value.get("ints"));
        assertEquals(2.5, value.get("float"));
        assertEquals(-0.125, value.get("neg"));
        assertEquals("h\u00e9llo \u2603", value.get("text"));
        assertEquals(Arrays.asList(null, true, false), value.get("tuple"));
        assertEquals(Map.of("a", List.of(), "b", List.of(1L, List.of(2L), List.of(3L, 4L), List.of(5L, 6L, 7L),
                List.of(8L, 9L, 10L, 11L))), value.get("nested"));
        assertEquals(List.of(1L), value.get("x"));
        assertSame(value.get("x"), value.get("y"), "a memoised object is shared, not copied");
    }

    @Test
    void readsCPythonProtocol2() {
        Map<?, ?> value = (Map<?, ?>) load(HexFormat.of().parseHex(PROTOCOL_2));
        assertPythonValue(value);
        assertEquals(List.of("ints", "float", "neg", "text", "tuple", "nested", "x", "y"),
                new ArrayList<>(value.keySet()), "dict order is kept");
    }

    @Test
    void readsCPythonProtocol5WithFramesMemoizeAndBytes() {
        Map<?, ?> value = (Map<?, ?>) load(HexFormat.of().parseHex(PROTOCOL_5));
        assertPythonValue(value);
        assertArrayEquals(new byte[] {0, 1, (byte) 0xff}, (byte[]) value.get("bytes"));
    }

    @Test
    void tuplesAreImmutableAndListsAreNot() {
        Map<?, ?> value = (Map<?, ?>) load(HexFormat.of().parseHex(PROTOCOL_2));
        assertThrows(UnsupportedOperationException.class, () -> ((List<?>) value.get("tuple")).clear());
        assertTrue(value.get("ints") instanceof ArrayList);
    }

    @Test
    void readsBinunicode8AndStackGlobal() {
        Object marker = new Object();
        byte[] pickle = new PickleBuilder().proto(4).frame(0).mark().string8("eight").stackGlobal("m", "g")
                .op('t').op('.').bytes();
        Object value = Unpickler.load(ByteBuffer.wrap(pickle), Map.of("m.g", marker), pid -> null);
        assertEquals(List.of("eight", marker), value);
    }

    @Test
    void refusesAGlobalMissingFromTheTable() {
        byte[] pickle = new PickleBuilder().proto(2).global("builtins", "eval").op('.').bytes();
        CheckpointException e = assertThrows(CheckpointException.class, () -> load(pickle));
        assertTrue(e.getMessage().contains("refusing to load global builtins.eval"), e.getMessage());
    }

    @Test
    void refusesObjectConstructingOpcodes() {
        byte[] pickle = new PickleBuilder().proto(2).op(')').op(')').op(0x81).op('.').bytes(); // NEWOBJ
        CheckpointException e = assertThrows(CheckpointException.class, () -> load(pickle));
        assertTrue(e.getMessage().contains("unsupported pickle opcode 0x81"), e.getMessage());
    }

    @Test
    void refusesCallingAValueThatIsNotAnAllowedCallable() {
        byte[] pickle = new PickleBuilder().proto(2).global("m", "v").op(')').op('R').op('.').bytes();
        CheckpointException e = assertThrows(CheckpointException.class,
                () -> Unpickler.load(ByteBuffer.wrap(pickle), Map.of("m.v", "data"), pid -> null));
        assertTrue(e.getMessage().contains("non-callable"), e.getMessage());
    }

    @Test
    void refusesTruncatedPickles() {
        byte[] whole = HexFormat.of().parseHex(PROTOCOL_2);
        byte[] truncated = Arrays.copyOf(whole, whole.length / 2);
        CheckpointException e = assertThrows(CheckpointException.class, () -> load(truncated));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void refusesAStringLongerThanThePickle() {
        byte[] pickle = new PickleBuilder().proto(2).op('X').raw(new byte[] {-1, -1, -1, 0x7f}).bytes();
        CheckpointException e = assertThrows(CheckpointException.class, () -> load(pickle));
        assertTrue(e.getMessage().contains("runs past the end"), e.getMessage());
    }
}
