package io.sam3stream.weights;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Writes pickle opcodes by hand, so tests can craft exactly the pickle they need (including hostile ones). */
public final class PickleBuilder {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public PickleBuilder op(int opcode) {
        out.write(opcode);
        return this;
    }

    public PickleBuilder proto(int protocol) {
        return op(0x80).op(protocol);
    }

    public PickleBuilder frame(long length) {
        return op(0x95).raw(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(length).array());
    }

    public PickleBuilder mark() {
        return op('(');
    }

    /** BININT1, BININT2 or BININT, whichever fits. */
    public PickleBuilder integer(long value) {
        if (value >= 0 && value < 256) {
            return op('K').op((int) value);
        }
        if (value >= 0 && value < 65536) {
            return op('M').op((int) value & 0xff).op((int) (value >>> 8));
        }
        return op('J').raw(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) value).array());
    }

    /** BINUNICODE (4-byte length). */
    public PickleBuilder string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return op('X').raw(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length).array()).raw(b);
    }

    /** SHORT_BINUNICODE (1-byte length, protocol 4). */
    public PickleBuilder shortString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return op(0x8c).op(b.length).raw(b);
    }

    /** BINUNICODE8 (8-byte length, protocol 4). */
    public PickleBuilder string8(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return op(0x8d).raw(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(b.length).array()).raw(b);
    }

    /** GLOBAL 'module\nname\n'. */
    public PickleBuilder global(String module, String name) {
        return op('c').raw((module + "\n" + name + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** STACK_GLOBAL on two SHORT_BINUNICODE strings. */
    public PickleBuilder stackGlobal(String module, String name) {
        return shortString(module).shortString(name).op(0x93);
    }

    /** A tuple of ints via MARK ... TUPLE. */
    public PickleBuilder intTuple(long... values) {
        mark();
        for (long v : values) {
            integer(v);
        }
        return op('t');
    }

    /**
     * {@code torch._utils._rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict())}, with the
     * storage given as persistent id {@code ('storage', torch.<storageType>, key, 'cpu', numel)}.
     */
    public PickleBuilder tensor(String storageType, String key, long numel, long offset, long[] size, long[] stride) {
        global("torch._utils", "_rebuild_tensor_v2");
        mark();
        mark().string("storage").global("torch", storageType).string(key).string("cpu").integer(numel).op('t');
        op('Q'); // BINPERSID
        integer(offset).intTuple(size).intTuple(stride).op(0x89); // NEWFALSE
        global("collections", "OrderedDict").op(')').op('R');
        op('t');
        return op('R');
    }

    public PickleBuilder raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    public byte[] bytes() {
        return out.toByteArray();
    }
}
