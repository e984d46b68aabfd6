package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.PytorchCheckpoint;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import io.sam3stream.weights.TorchArchiveBuilder;
import io.sam3stream.weights.WeightSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * Fuzz targets for the checkpoint readers. Property: a reader either refuses its input with a
 * {@link CheckpointException} or hands out tensors whose bytes match their dtype and shape; no other exception
 * escapes, no input takes longer than {@link #PER_INPUT_DEADLINE}, and no header makes a reader allocate what it
 * claims ({@link AllocationBudget}). Seeds: {@code CheckpointFuzzTestInputs/} (small valid {@code .safetensors} and
 * {@code .pt} files for every target, and state-dict pickles for {@link #stateDictPickle}).
 */
class CheckpointFuzzTest {

    /**
     * Generous for inputs of a few KB that parse in microseconds; a hang shows up as a failure, not a stuck build.
     * (Not JUnit's {@code @Timeout}: in fuzzing mode that would also bound the whole fuzzing run.)
     */
    private static final Duration PER_INPUT_DEADLINE = Duration.ofSeconds(5);

    private static final FuzzInputFile SAFETENSORS = new FuzzInputFile(".safetensors");
    private static final FuzzInputFile ARCHIVE = new FuzzInputFile(".pt");
    private static final FuzzInputFile ANY_CHECKPOINT = new FuzzInputFile(".ckpt");
    private static final FuzzInputFile PICKLE_ARCHIVE = new FuzzInputFile(".pt");

    @FuzzTest
    void safetensorsFile(byte[] data) {
        openAndReadEveryTensor(SAFETENSORS.write(data), data.length, SafetensorsFile::open);
    }

    @FuzzTest
    void pytorchArchive(byte[] data) {
        openAndReadEveryTensor(ARCHIVE.write(data), data.length, PytorchCheckpoint::open);
    }

    @FuzzTest
    void checkpointLoader(byte[] data) {
        openAndReadEveryTensor(ANY_CHECKPOINT.write(data), data.length, CheckpointLoader::open);
    }

    /**
     * The input is the {@code data.pkl} of an otherwise valid archive holding one six-element float storage
     * {@code "0"}, so that mutations reach the unpickler instead of dying in the zip structure.
     */
    @FuzzTest
    void stateDictPickle(byte[] pickle) {
        Path file;
        try {
            file = new TorchArchiveBuilder("fuzz").pickle(pickle).floatStorage("0", 0, 1, 2, 3, 4, 5)
                    .writeTo(PICKLE_ARCHIVE.path());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openAndReadEveryTensor(file, pickle.length, PytorchCheckpoint::open);
    }

    private static void openAndReadEveryTensor(Path file, long inputBytes, Function<Path, WeightSource> open) {
        assertTimeoutPreemptively(PER_INPUT_DEADLINE, () -> AllocationBudget.assertWithinInputBudget(inputBytes, () -> {
            try (WeightSource source = open.apply(file)) {
                source.names().forEach(name -> readTensor(source, name));
            } catch (CheckpointException refused) {
                // the documented refusal of a malformed or hostile file
            }
        }));
    }

    /** Reads one tensor's values; a refusal of this tensor alone (e.g. a complex dtype) is allowed. */
    private static void readTensor(WeightSource source, String name) {
        RawTensor tensor;
        try {
            tensor = source.get(name);
        } catch (CheckpointException refused) {
            return;
        }
        float[] values = tensor.toFloats();
        assertEquals(tensor.data().remaining(), (long) values.length * tensor.dtype().byteSize(),
                "bytes of " + name + " do not match its shape");
    }
}
