package io.sam3stream.model.nn;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes the archive {@code torch.jit.save} would write for a stateless TorchScript module: the module's source under
 * {@code code/}, a pickled object of its class (only the {@code training} flag) and an empty constants table. libtorch
 * compiles the source when it loads the archive, so operators that DJL does not bind (fused attention, oneDNN linear
 * with an activation epilogue) become callable without any prebuilt file or a Python toolchain.
 */
final class TorchScriptArchive {

    /** Serialization format version: 10 is the first with today's {@code gelu} and {@code div} schemas. */
    private static final String FORMAT_VERSION = "10\n";
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private TorchScriptArchive() {}

    /**
     * @param className the module class defined in {@code source} (it becomes {@code __torch__.className})
     * @param source    TorchScript source of that class, in the dialect of serialized modules (every method's
     *                  {@code self} typed as {@code __torch__.className}, the class body declaring
     *                  {@code training : bool})
     * @return the archive's bytes, entries stored uncompressed as libtorch writes them
     */
    static byte[] of(String className, String source) {
        if (!CLASS_NAME.matcher(className).matches()) {
            throw new IllegalArgumentException("not a TorchScript class name: " + className);
        }
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(zip)) {
            store(out, "archive/data.pkl", moduleObject(className));
            store(out, "archive/code/__torch__.py", source.getBytes(StandardCharsets.UTF_8));
            store(out, "archive/constants.pkl", new byte[] {(byte) 0x80, 2, ')', '.'}); // the empty tuple
            store(out, "archive/version", FORMAT_VERSION.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to memory", e);
        }
        return zip.toByteArray();
    }

    /**
     * Pickle (protocol 2) of {@code __torch__.className()} with state {@code {'training': False}}: GLOBAL, EMPTY_TUPLE,
     * NEWOBJ, then BUILD with a one-entry dict. libtorch's unpickler resolves the class from the archive's source.
     */
    private static byte[] moduleObject(String className) {
        ByteArrayOutputStream pickle = new ByteArrayOutputStream();
        pickle.write(0x80); // PROTO 2
        pickle.write(2);
        pickle.writeBytes(("c__torch__\n" + className + "\n").getBytes(StandardCharsets.US_ASCII)); // GLOBAL
        pickle.write(')'); // EMPTY_TUPLE
        pickle.write(0x81); // NEWOBJ
        pickle.write('}'); // EMPTY_DICT
        byte[] key = "training".getBytes(StandardCharsets.US_ASCII);
        pickle.write('X'); // BINUNICODE, 4-byte little-endian length
        pickle.write(key.length);
        pickle.writeBytes(new byte[3]);
        pickle.writeBytes(key);
        pickle.write(0x89); // NEWFALSE: evaluation mode
        pickle.write('s'); // SETITEM
        pickle.write('b'); // BUILD
        pickle.write('.'); // STOP
        return pickle.toByteArray();
    }

    private static void store(ZipOutputStream out, String name, byte[] data) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(data.length);
        entry.setCompressedSize(data.length);
        CRC32 crc = new CRC32();
        crc.update(data);
        entry.setCrc(crc.getValue());
        out.putNextEntry(entry);
        out.write(data);
        out.closeEntry();
    }
}
