package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.TinyGolden;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PytorchCheckpointTest {

    @TempDir
    Path dir;

    private static final float[] SIX = {0, 1, 2, 3, 4, 5};

    /** A pickle of {name: tensor} over one float storage "0" of six elements. */
    private static PickleBuilder stateDict(String name, long offset, long[] size, long[] stride) {
        return new PickleBuilder().proto(2).op('}').string(name)
                .tensor("FloatStorage", "0", 6, offset, size, stride).op('s');
    }

    private Path archive(TorchArchiveBuilder builder) throws IOException {
        return builder.writeTo(dir.resolve("checkpoint.pt"));
    }

    @Test
    void readsTheTinyCheckpoint() {
        try (PytorchCheckpoint pt = PytorchCheckpoint.open(TinyGolden.dir().resolve("sam3-tiny.pt"))) {
            assertEquals(320, pt.names().size());
            RawTensor pos = pt.get("detector.backbone.vision_backbone.trunk.pos_embed");
            assertEquals(DType.F32, pos.dtype());
            assertArrayEquals(new long[] {1, 17, 64}, pos.shape());
            RawTensor patch = pt.get("detector.backbone.vision_backbone.trunk.patch_embed.proj.weight");
            assertArrayEquals(new long[] {64, 3, 14, 14}, patch.shape());
        }
    }

    @Test
    void refusesToReadAComplexTensor() {
        try (PytorchCheckpoint pt = PytorchCheckpoint.open(TinyGolden.dir().resolve("sam3-tiny.pt"))) {
            String freqs = "detector.backbone.vision_backbone.trunk.blocks.0.attn.freqs_cis";
            assertTrue(pt.names().contains(freqs));
            CheckpointException e = assertThrows(CheckpointException.class, () -> pt.get(freqs));
            assertTrue(e.getMessage().contains("ComplexFloatStorage"), e.getMessage());
        }
    }

    @Test
    void materialisesNonContiguousViewsInCOrder() throws IOException {
        byte[] pickle = new PickleBuilder().proto(2).op('}').mark()
                .string("transposed").tensor("FloatStorage", "0", 6, 0, new long[] {3, 2}, new long[] {1, 3})
                .string("strided").tensor("FloatStorage", "0", 6, 1, new long[] {2}, new long[] {2})
                .string("window").tensor("FloatStorage", "0", 6, 2, new long[] {2, 2}, new long[] {2, 1})
                .string("broadcast").tensor("FloatStorage", "0", 6, 4, new long[] {2, 1, 3}, new long[] {0, 7, 0})
                .op('u').op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("views").pickle(pickle).floatStorage("0", SIX));
        try (PytorchCheckpoint pt = PytorchCheckpoint.open(file)) {
            assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, pt.get("transposed").toFloats());
            assertArrayEquals(new long[] {3, 2}, pt.get("transposed").shape());
            assertArrayEquals(new float[] {1, 3}, pt.get("strided").toFloats());
            assertArrayEquals(new float[] {2, 3, 4, 5}, pt.get("window").toFloats());
            assertArrayEquals(new float[] {4, 4, 4, 4, 4, 4}, pt.get("broadcast").toFloats());
        }
    }

    @Test
    void unwrapsTheModelEntry() throws IOException {
        byte[] pickle = new PickleBuilder().proto(2).op('}').mark()
                .string("model").op('}').string("w").tensor("FloatStorage", "0", 6, 0, new long[] {6},
                        new long[] {1}).op('s')
                .string("epoch").integer(3)
                .op('u').op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("wrapped").pickle(pickle).floatStorage("0", SIX));
        try (PytorchCheckpoint pt = PytorchCheckpoint.open(file)) {
            assertEquals(Set.of("w"), pt.names());
            assertArrayEquals(SIX, pt.get("w").toFloats());
        }
    }

    @Test
    void readsAnOrderedDictWithMetadataAndProtocol4Opcodes() throws IOException {
        // As torch.save(model.state_dict()) writes it: OrderedDict(), SETITEMS, then BUILD with {'_metadata': ...}
        byte[] pickle = new PickleBuilder().proto(4).frame(0)
                .stackGlobal("collections", "OrderedDict").op(0x94).op(')').op('R').op(0x94)
                .mark().shortString("w").op(0x94).tensor("FloatStorage", "0", 6, 0, new long[] {2, 3},
                        new long[] {3, 1}).op(0x94).op('u')
                .op('}').shortString("_metadata").op('}').shortString("").op('}').shortString("version")
                .integer(1).op('s').op('s').op('s').op('b')
                .op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("ordered").pickle(pickle).floatStorage("0", SIX));
        try (PytorchCheckpoint pt = PytorchCheckpoint.open(file)) {
            assertEquals(Set.of("w"), pt.names());
            assertArrayEquals(new long[] {2, 3}, pt.get("w").shape());
            assertArrayEquals(SIX, pt.get("w").toFloats());
        }
    }

    @Test
    void readsZip64Archives() throws IOException {
        byte[] pickle = stateDict("w", 0, new long[] {6}, new long[] {1}).op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("big").zip64().pickle(pickle).floatStorage("0", SIX));
        try (PytorchCheckpoint pt = PytorchCheckpoint.open(file)) {
            assertArrayEquals(SIX, pt.get("w").toFloats());
        }
    }

    @Test
    void refusesOsSystemThroughGlobal() throws IOException {
        Path marker = dir.resolve("pwned");
        byte[] pickle = new PickleBuilder().proto(2).global("os", "system").string("touch " + marker)
                .op(0x85).op('R').op('.').bytes();
        assertRefusedWithoutEffect(pickle, marker);
    }

    @Test
    void refusesOsSystemThroughStackGlobal() throws IOException {
        Path marker = dir.resolve("pwned");
        byte[] pickle = new PickleBuilder().proto(4).frame(0).stackGlobal("os", "system").shortString("touch "
                + marker).op(0x85).op('R').op('.').bytes();
        assertRefusedWithoutEffect(pickle, marker);
    }

    private void assertRefusedWithoutEffect(byte[] pickle, Path marker) throws IOException {
        Path file = archive(new TorchArchiveBuilder("evil").pickle(pickle));
        CheckpointException e = assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file));
        assertTrue(e.getMessage().contains("refusing to load global os.system"), e.getMessage());
        assertFalse(Files.exists(marker), "the command ran");
    }

    @Test
    void refusesAViewRunningPastItsStorage() throws IOException {
        byte[] pickle = stateDict("w", 2, new long[] {5}, new long[] {1}).op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("short").pickle(pickle).floatStorage("0", SIX));
        CheckpointException e = assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file));
        assertTrue(e.getMessage().contains("runs past"), e.getMessage());
    }

    @Test
    void refusesAStorageEntryOfTheWrongSize() throws IOException {
        byte[] pickle = stateDict("w", 0, new long[] {6}, new long[] {1}).op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("cut").pickle(pickle).floatStorage("0", 0, 1, 2));
        try (PytorchCheckpoint pt = PytorchCheckpoint.open(file)) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> pt.get("w"));
            assertTrue(e.getMessage().contains("needs 24"), e.getMessage());
        }
    }

    @Test
    void refusesAStorageWithoutDataEntry() throws IOException {
        byte[] pickle = stateDict("w", 0, new long[] {6}, new long[] {1}).op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("missing").pickle(pickle));
        CheckpointException e = assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file));
        assertTrue(e.getMessage().contains("missing/data/0"), e.getMessage());
    }

    @Test
    void refusesABigEndianArchive() throws IOException {
        byte[] pickle = stateDict("w", 0, new long[] {6}, new long[] {1}).op('.').bytes();
        Path file = archive(new TorchArchiveBuilder("be").pickle(pickle).floatStorage("0", SIX)
                .entry("byteorder", "big".getBytes(StandardCharsets.US_ASCII)));
        CheckpointException e = assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file));
        assertTrue(e.getMessage().contains("big-endian"), e.getMessage());
    }

    @Test
    void refusesAFileThatIsNotAZipArchive() throws IOException {
        Path file = Files.write(dir.resolve("plain.pt"), new byte[100]);
        CheckpointException e = assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file));
        assertTrue(e.getMessage().contains("not a zip archive"), e.getMessage());
    }
}
