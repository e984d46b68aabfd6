package io.sam3stream.weights;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A pickle reader that builds plain data and nothing else: the pickle virtual machine restricted to the opcodes of
 * protocols 2 to 5 that describe values, plus the globals a caller explicitly allows.
 *
 * <p>Python values become Java ones: {@code None} → {@code null}, bool → {@link Boolean}, int → {@link Long}
 * (wider integers are refused), float → {@link Double}, str → {@link String}, bytes → {@code byte[]},
 * tuple → an unmodifiable {@link List}, list → {@link ArrayList}, dict → {@link LinkedHashMap}.
 *
 * <p>Safety: a global is looked up by its dotted name in the caller's table and refused, by name, when it is not
 * there; nothing from the file is ever executed. The only code a pickle can reach is a table entry that is a
 * {@link PythonCallable}, through REDUCE. BUILD is accepted only on a dict and its state is discarded (a state
 * dict's {@code OrderedDict} carries its {@code _metadata} attribute that way). Opcodes that construct arbitrary
 * objects (NEWOBJ, NEWOBJ_EX, INST, OBJ, EXT1/2/4) and the text opcodes of protocol 0 are refused.
 */
final class Unpickler {

    /** A Python callable the caller allows a pickle to invoke through REDUCE. */
    @FunctionalInterface
    interface PythonCallable {
        /** Calls it with the positional arguments of the REDUCE tuple. */
        Object call(List<Object> args);
    }

    private static final int MARK = '(';
    private static final int STOP = '.';
    private static final int POP = '0';
    private static final int POP_MARK = '1';
    private static final int DUP = '2';
    private static final int BININT = 'J';
    private static final int BININT1 = 'K';
    private static final int BININT2 = 'M';
    private static final int NONE = 'N';
    private static final int BINPERSID = 'Q';
    private static final int REDUCE = 'R';
    private static final int BINSTRING = 'T';
    private static final int SHORT_BINSTRING = 'U';
    private static final int BINUNICODE = 'X';
    private static final int APPEND = 'a';
    private static final int BUILD = 'b';
    private static final int GLOBAL = 'c';
    private static final int DICT = 'd';
    private static final int EMPTY_DICT = '}';
    private static final int APPENDS = 'e';
    private static final int BINGET = 'h';
    private static final int LONG_BINGET = 'j';
    private static final int LIST = 'l';
    private static final int EMPTY_LIST = ']';
    private static final int BINPUT = 'q';
    private static final int LONG_BINPUT = 'r';
    private static final int SETITEM = 's';
    private static final int TUPLE = 't';
    private static final int EMPTY_TUPLE = ')';
    private static final int SETITEMS = 'u';
    private static final int BINFLOAT = 'G';
    private static final int BINBYTES = 'B';
    private static final int SHORT_BINBYTES = 'C';
    private static final int PROTO = 0x80;
    private static final int TUPLE1 = 0x85;
    private static final int TUPLE2 = 0x86;
    private static final int TUPLE3 = 0x87;
    private static final int NEWTRUE = 0x88;
    private static final int NEWFALSE = 0x89;
    private static final int LONG1 = 0x8a;
    private static final int LONG4 = 0x8b;
    private static final int SHORT_BINUNICODE = 0x8c;
    private static final int BINUNICODE8 = 0x8d;
    private static final int BINBYTES8 = 0x8e;
    private static final int STACK_GLOBAL = 0x93;
    private static final int MEMOIZE = 0x94;
    private static final int FRAME = 0x95;
    private static final int HIGHEST_PROTOCOL = 5;
    private static final int DESCRIPTION_CHARS = 200;

    private final ByteBuffer in;
    private final Map<String, Object> globals;
    private final Function<Object, Object> persistentLoad;
    private final List<Object> stack = new ArrayList<>();
    private final Deque<Integer> marks = new ArrayDeque<>();
    private final Map<Long, Object> memo = new HashMap<>();

    private Unpickler(ByteBuffer pickle, Map<String, Object> globals, Function<Object, Object> persistentLoad) {
        this.in = pickle.slice().order(ByteOrder.LITTLE_ENDIAN);
        this.globals = globals;
        this.persistentLoad = persistentLoad;
    }

    /**
     * Reads one pickled value.
     *
     * @param pickle the pickle bytes
     * @param globals the allowed globals by dotted name ({@code "collections.OrderedDict"}): a
     *     {@link PythonCallable}, or any value that stands for the global where the pickle uses it as data
     * @param persistentLoad resolves the persistent ids of BINPERSID
     * @throws CheckpointException if the pickle is malformed or asks for anything not allowed
     */
    static Object load(ByteBuffer pickle, Map<String, Object> globals, Function<Object, Object> persistentLoad) {
        Unpickler unpickler = new Unpickler(pickle, globals, persistentLoad);
        try {
            return unpickler.run();
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new CheckpointException("truncated pickle at offset " + unpickler.in.position(), e);
        } catch (ClassCastException | UnsupportedOperationException | ArithmeticException e) {
            throw new CheckpointException("malformed pickle near offset " + unpickler.in.position() + ": " + e, e);
        }
    }

    private Object run() {
        while (true) {
            int offset = in.position();
            int op = u8();
            switch (op) {
                case PROTO -> {
                    int protocol = u8();
                    if (protocol > HIGHEST_PROTOCOL) {
                        throw new CheckpointException("unsupported pickle protocol " + protocol);
                    }
                }
                case FRAME -> in.getLong(); // frames only group bytes that are already contiguous here
                case STOP -> {
                    return pop();
                }
                case MARK -> marks.push(stack.size());
                case POP -> pop();
                case POP_MARK -> popMark();
                case DUP -> push(peek());
                case NONE -> push(null);
                case NEWTRUE -> push(Boolean.TRUE);
                case NEWFALSE -> push(Boolean.FALSE);
                case BININT -> push((long) in.getInt());
                case BININT1 -> push((long) u8());
                case BININT2 -> push((long) (in.getShort() & 0xffff));
                case LONG1 -> push(littleEndianInteger(u8()));
                case LONG4 -> push(littleEndianInteger(in.getInt()));
                case BINFLOAT -> push(Double.longBitsToDouble(Long.reverseBytes(in.getLong()))); // big-endian
                case SHORT_BINUNICODE -> push(new String(bytes(u8()), StandardCharsets.UTF_8));
                case BINUNICODE -> push(new String(bytes(u32()), StandardCharsets.UTF_8));
                case BINUNICODE8 -> push(new String(bytes(in.getLong()), StandardCharsets.UTF_8));
                case SHORT_BINSTRING -> push(new String(bytes(u8()), StandardCharsets.ISO_8859_1));
                case BINSTRING -> push(new String(bytes(in.getInt()), StandardCharsets.ISO_8859_1));
                case SHORT_BINBYTES -> push(bytes(u8()));
                case BINBYTES -> push(bytes(u32()));
                case BINBYTES8 -> push(bytes(in.getLong()));
                case EMPTY_TUPLE -> push(List.of());
                case TUPLE1 -> push(tuple(popTop(1)));
                case TUPLE2 -> push(tuple(popTop(2)));
                case TUPLE3 -> push(tuple(popTop(3)));
                case TUPLE -> push(tuple(popMark()));
                case EMPTY_LIST -> push(new ArrayList<>());
                case LIST -> push(new ArrayList<>(popMark()));
                case APPEND -> {
                    Object value = pop();
                    list(peek()).add(value);
                }
                case APPENDS -> {
                    List<Object> values = popMark();
                    list(peek()).addAll(values);
                }
                case EMPTY_DICT -> push(new LinkedHashMap<>());
                case DICT -> {
                    Map<Object, Object> dict = new LinkedHashMap<>();
                    putPairs(dict, popMark());
                    push(dict);
                }
                case SETITEM -> {
                    Object value = pop();
                    Object key = pop();
                    dict(peek()).put(hashableKey(key), value);
                }
                case SETITEMS -> {
                    List<Object> pairs = popMark();
                    putPairs(dict(peek()), pairs);
                }
                case BINPUT -> memo.put((long) u8(), peek());
                case LONG_BINPUT -> memo.put(u32(), peek());
                case MEMOIZE -> memo.put((long) memo.size(), peek());
                case BINGET -> push(memoGet(u8()));
                case LONG_BINGET -> push(memoGet(u32()));
                case GLOBAL -> {
                    String module = line();
                    push(global(module, line()));
                }
                case STACK_GLOBAL -> {
                    Object name = pop();
                    Object module = pop();
                    if (!(module instanceof String m) || !(name instanceof String n)) {
                        throw new CheckpointException("STACK_GLOBAL needs two strings at offset " + offset);
                    }
                    push(global(m, n));
                }
                case REDUCE -> {
                    Object args = pop();
                    Object callable = pop();
                    if (!(callable instanceof PythonCallable f) || !(args instanceof List<?> a)) {
                        throw new CheckpointException("pickle calls a non-callable at offset " + offset);
                    }
                    push(f.call(Collections.unmodifiableList(a)));
                }
                case BUILD -> {
                    pop();
                    if (!(peek() instanceof Map)) {
                        throw new CheckpointException("pickle sets the state of a non-dict at offset " + offset);
                    }
                }
                case BINPERSID -> push(persistentLoad.apply(pop()));
                default -> throw new CheckpointException(
                        String.format("unsupported pickle opcode 0x%02x at offset %d", op, offset));
            }
        }
    }

    private Object global(String module, String name) {
        String dotted = module + "." + name;
        if (!globals.containsKey(dotted)) {
            throw new CheckpointException("refusing to load global " + dotted
                    + ": only the types of a tensor state dict are allowed");
        }
        return globals.get(dotted);
    }

    private int u8() {
        return in.get() & 0xff;
    }

    private long u32() {
        return in.getInt() & 0xffffffffL;
    }

    private byte[] bytes(long length) {
        if (length < 0 || length > in.remaining()) {
            throw new CheckpointException("truncated pickle: a value of " + length
                    + " bytes runs past the end at offset " + in.position());
        }
        byte[] b = new byte[(int) length];
        in.get(b);
        return b;
    }

    /** The text up to the next newline (the module and name operands of GLOBAL). */
    private String line() {
        StringBuilder s = new StringBuilder();
        for (int c = u8(); c != '\n'; c = u8()) {
            s.append((char) c);
        }
        return s.toString();
    }

    /** A LONG1/LONG4 operand: a little-endian two's-complement integer of {@code length} bytes. */
    private long littleEndianInteger(long length) {
        if (length > Long.BYTES) {
            throw new CheckpointException("pickled integer of " + length + " bytes does not fit 64 bits");
        }
        byte[] b = bytes(length);
        long value = 0;
        for (int i = b.length - 1; i >= 0; i--) {
            value = (value << 8) | (b[i] & 0xff);
        }
        int unusedBits = Long.SIZE - 8 * b.length;
        return b.length == 0 ? 0 : (value << unusedBits) >> unusedBits; // sign-extend
    }

    private void push(Object value) {
        stack.add(value);
    }

    private Object pop() {
        if (stack.isEmpty() || (!marks.isEmpty() && marks.peek() == stack.size())) {
            throw new CheckpointException("pickle stack underflow at offset " + in.position());
        }
        return stack.remove(stack.size() - 1);
    }

    private Object peek() {
        if (stack.isEmpty()) {
            throw new CheckpointException("pickle stack underflow at offset " + in.position());
        }
        return stack.get(stack.size() - 1);
    }

    /** Removes and returns the top {@code n} items, bottom first. */
    private List<Object> popTop(int n) {
        List<Object> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(0, pop());
        }
        return items;
    }

    /** Removes and returns the items above the topmost mark, bottom first, and drops the mark. */
    private List<Object> popMark() {
        if (marks.isEmpty()) {
            throw new CheckpointException("pickle has no mark at offset " + in.position());
        }
        List<Object> top = stack.subList(marks.pop(), stack.size());
        List<Object> items = new ArrayList<>(top);
        top.clear();
        return items;
    }

    private Object memoGet(long index) {
        if (!memo.containsKey(index)) {
            throw new CheckpointException("pickle reads memo slot " + index + " that was never written");
        }
        return memo.get(index);
    }

    private static List<Object> tuple(List<Object> items) {
        return Collections.unmodifiableList(items);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object target) {
        if (!(target instanceof ArrayList)) {
            throw new CheckpointException("pickle appends to a " + typeName(target) + ", not a list");
        }
        return (List<Object>) target;
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> dict(Object target) {
        if (!(target instanceof Map)) {
            throw new CheckpointException("pickle sets an item of a " + typeName(target) + ", not a dict");
        }
        return (Map<Object, Object>) target;
    }

    private static void putPairs(Map<Object, Object> dict, List<Object> pairs) {
        if (pairs.size() % 2 != 0) {
            throw new CheckpointException("pickle dict has an odd number of keys and values");
        }
        for (int i = 0; i < pairs.size(); i += 2) {
            dict.put(hashableKey(pairs.get(i)), pairs.get(i + 1));
        }
    }

    /**
     * A dict key, if it is a scalar. Python refuses lists and dicts as keys; tuples it accepts, but hashing one
     * walks it, and the memo lets a few bytes build a tuple of 2^64 leaves. A state dict's keys are strings.
     */
    private static Object hashableKey(Object key) {
        if (key != null && !(key instanceof String || key instanceof Long || key instanceof Double
                || key instanceof Boolean || key instanceof byte[])) {
            throw new CheckpointException("pickle uses a " + typeName(key) + " as a dict key; only str, int, float,"
                    + " bool, bytes and None keys are supported");
        }
        return key;
    }

    /**
     * A short rendering of an unpickled value for error messages, at most {@code DESCRIPTION_CHARS} long. Needed
     * because the memo lets a pickle build cyclic and exponentially shared lists, which {@code toString} would
     * render forever or overflow the stack on.
     */
    static String describe(Object value) {
        StringBuilder out = new StringBuilder();
        describe(value, out);
        return out.length() <= DESCRIPTION_CHARS ? out.toString() : out.substring(0, DESCRIPTION_CHARS) + "...";
    }

    private static void describe(Object value, StringBuilder out) {
        if (out.length() > DESCRIPTION_CHARS) {
            return; // each call appends before it recurses, so the budget also bounds the recursion
        }
        if (value instanceof List<?> items) {
            out.append('[');
            for (int i = 0; i < items.size() && out.length() <= DESCRIPTION_CHARS; i++) {
                out.append(i == 0 ? "" : ", ");
                describe(items.get(i), out);
            }
            out.append(']');
        } else if (value instanceof Map<?, ?> dict) {
            out.append('{');
            String separator = "";
            for (Map.Entry<?, ?> item : dict.entrySet()) {
                if (out.length() > DESCRIPTION_CHARS) {
                    break;
                }
                out.append(separator).append(item.getKey()).append(": "); // keys are scalars: hashableKey
                describe(item.getValue(), out);
                separator = ", ";
            }
            out.append('}');
        } else {
            out.append(value instanceof byte[] b ? "bytes[" + b.length + "]" : String.valueOf(value));
        }
    }

    private static String typeName(Object value) {
        return value == null ? "None" : value.getClass().getSimpleName();
    }
}
