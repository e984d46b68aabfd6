package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.PickleBuilder;
import io.sam3stream.weights.PytorchCheckpoint;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.TorchArchiveBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code .pt} is a zip archive, so it can carry the archive attacks: entries that inflate to far more than the
 * file, sizes, counts and offsets that claim more than the file holds, archives inside archives. Each must be
 * refused with a message that names the problem, before anything of the claimed size is allocated.
 */
class ZipBombSafetyTest {

    /** Far below every size these archives claim; opening the tiny valid archive stays well inside it. */
    private static final long ALLOCATION_BUDGET = 8L << 20;

    private static final String PICKLE_ENTRY = "bomb/data.pkl";

    @TempDir
    Path dir;

    /** A valid state dict {@code {"w": six floats}} in a stored archive, as torch.save writes it. */
    private static TorchArchiveBuilder validArchive() {
        byte[] pickle = new PickleBuilder().proto(2).op('}').string("w")
                .tensor("FloatStorage", "0", 6, 0, new long[] {6}, new long[] {1}).op('s').op('.').bytes();
        return new TorchArchiveBuilder("bomb").pickle(pickle).floatStorage("0", 0, 1, 2, 3, 4, 5);
    }

    private byte[] bytesOf(TorchArchiveBuilder archive) throws IOException {
        return Files.readAllBytes(archive.writeTo(dir.resolve("archive.zip")));
    }

    private String refusal(byte[] archive) throws IOException {
        Path file = Files.write(dir.resolve("hostile.pt"), archive);
        assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file)); // loads the classes unmeasured
        return AllocationBudget.assertAtMost(ALLOCATION_BUDGET,
                () -> assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file))).getMessage();
    }

    private static void assertMentions(String message, String expected) {
        assertTrue(message.contains(expected), message);
    }

    @Test
    void refusesADeflatedEntryWithoutInflatingIt() throws IOException {
        // 64 MiB of zeros deflate to about 64 KiB: the classic bomb. PyTorch never compresses, so neither do we.
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(zip)) {
            out.putNextEntry(new ZipEntry(PICKLE_ENTRY));
            out.write(new byte[64 << 20]);
            out.closeEntry();
        }
        assertTrue(zip.size() < 1 << 20, "the bomb should be small: " + zip.size());
        assertMentions(refusal(zip.toByteArray()), "compressed (method 8)");
    }

    @Test
    void refusesAStoredEntryClaimingAHugeUncompressedSize() throws IOException {
        ZipPatch zip = new ZipPatch(bytesOf(validArchive()));
        zip.put(zip.centralHeader(PICKLE_ENTRY) + ZipPatch.CENTRAL_SIZE, 4, 0xfffffffeL);
        assertMentions(refusal(zip.bytes()), "has compressed size");
    }

    @Test
    void refusesAStoredEntryRunningPastTheEndOfTheFile() throws IOException {
        ZipPatch zip = new ZipPatch(bytesOf(validArchive()));
        int header = zip.centralHeader(PICKLE_ENTRY);
        zip.put(header + ZipPatch.CENTRAL_SIZE, 4, 0xfffffffeL).put(header + ZipPatch.CENTRAL_COMPRESSED_SIZE, 4,
                0xfffffffeL);
        assertMentions(refusal(zip.bytes()), "entry " + PICKLE_ENTRY + " runs past the end of the file");
    }

    @Test
    void refusesZip64SizesBeyondTheFileWithoutOverflowing() throws IOException {
        for (long claimed : new long[] {1L << 40, Long.MAX_VALUE}) {
            ZipPatch zip = new ZipPatch(bytesOf(validArchive().zip64()));
            int extra = zip.centralExtra(PICKLE_ENTRY);
            zip.put(extra + ZipPatch.ZIP64_EXTRA_SIZE, 8, claimed)
                    .put(extra + ZipPatch.ZIP64_EXTRA_COMPRESSED_SIZE, 8, claimed);
            assertMentions(refusal(zip.bytes()), "entry " + PICKLE_ENTRY + " runs past the end of the file");
        }
    }

    @Test
    void refusesACentralDirectoryBeyondTheFileWithoutAllocatingIt() throws IOException {
        // Offset + size wraps past 2^63: a check that adds them lets a 2 GB directory buffer through.
        ZipPatch zip = new ZipPatch(bytesOf(validArchive().zip64()));
        int end = zip.zip64EndRecord();
        zip.put(end + ZipPatch.ZIP64_END_DIRECTORY_OFFSET, 8, Long.MAX_VALUE - 16)
                .put(end + ZipPatch.ZIP64_END_DIRECTORY_SIZE, 8, Integer.MAX_VALUE);
        assertMentions(refusal(zip.bytes()), "central directory [" + (Long.MAX_VALUE - 16));
    }

    @Test
    void refusesAnEntryCountTheDirectoryDoesNotHold() throws IOException {
        ZipPatch classic = new ZipPatch(bytesOf(validArchive()));
        int end = classic.endRecord();
        classic.put(end + ZipPatch.END_ENTRIES_ON_DISK, 2, 0xffff).put(end + ZipPatch.END_ENTRIES, 2, 0xffff);
        assertMentions(refusal(classic.bytes()), "corrupt central directory");

        ZipPatch zip64 = new ZipPatch(bytesOf(validArchive().zip64()));
        zip64.put(zip64.zip64EndRecord() + ZipPatch.ZIP64_END_ENTRIES, 8, Long.MAX_VALUE);
        assertMentions(refusal(zip64.bytes()), "corrupt central directory");
    }

    @Test
    void refusesAnArchiveWhosePickleIsAnotherArchive() throws IOException {
        byte[] inner = bytesOf(validArchive());
        byte[] outer = bytesOf(new TorchArchiveBuilder("bomb").pickle(inner));
        assertMentions(refusal(outer), "unsupported pickle opcode 0x50"); // 'P' of the inner "PK\3\4"
    }

    @Test
    void readsAnArchiveInsideAStorageAsOpaqueBytes() throws IOException {
        byte[] inner = bytesOf(validArchive());
        byte[] pickle = new PickleBuilder().proto(2).op('}').string("nested")
                .tensor("ByteStorage", "0", inner.length, 0, new long[] {inner.length}, new long[] {1})
                .op('s').op('.').bytes();
        Path file = new TorchArchiveBuilder("outer").pickle(pickle).storage("0", inner)
                .writeTo(dir.resolve("outer.pt"));
        try (PytorchCheckpoint checkpoint = PytorchCheckpoint.open(file)) {
            RawTensor nested = checkpoint.get("nested");
            byte[] read = new byte[inner.length];
            ByteBuffer data = nested.data();
            data.get(read);
            assertArrayEquals(inner, read);
        }
    }
}
