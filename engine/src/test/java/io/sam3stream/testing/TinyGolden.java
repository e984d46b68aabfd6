package io.sam3stream.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.Sam3ConfigReader;
import io.sam3stream.parity.PaddingPositions;
import io.sam3stream.parity.StageComparison;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import io.sam3stream.weights.WeightSource;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The tiny golden set shipped in the test resources ({@code golden/sam3-tiny}): upstream SAM3's weights, inputs
 * and every stage's output for a small random model. Opened files are cached for the whole test JVM.
 */
public final class TinyGolden {

    private static SafetensorsFile outputs;
    private static SafetensorsFile inputs;
    private static WeightSource weights;

    private TinyGolden() {}

    private static Path dir;

    /**
     * The folder holding the golden files: the test resources themselves in this module, a copy in a temporary
     * folder when another module's tests read them from this module's test jar (the readers need real files).
     */
    public static synchronized Path dir() {
        if (dir == null) {
            dir = locate();
        }
        return dir;
    }

    private static Path locate() {
        try {
            URI config = TinyGolden.class.getResource("/golden/sam3-tiny/config.json").toURI();
            if ("file".equals(config.getScheme())) {
                return Path.of(config).getParent();
            }
            try (FileSystem jar = FileSystems.newFileSystem(config, Map.of())) {
                Path source = jar.provider().getPath(config).getParent();
                Path copy = Files.createTempDirectory("sam3-tiny-golden");
                copy.toFile().deleteOnExit();
                try (Stream<Path> files = Files.list(source)) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        Path target = copy.resolve(file.getFileName().toString());
                        Files.copy(file, target);
                        target.toFile().deleteOnExit();
                    }
                }
                return copy;
            }
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot open the tiny golden set", e);
        }
    }

    public static Sam3Config config() {
        return Sam3ConfigReader.read(dir().resolve("config.json"));
    }

    public static synchronized SafetensorsFile outputs() {
        if (outputs == null) {
            outputs = SafetensorsFile.open(dir().resolve("outputs.safetensors"));
        }
        return outputs;
    }

    public static synchronized SafetensorsFile inputs() {
        if (inputs == null) {
            inputs = SafetensorsFile.open(dir().resolve("inputs.safetensors"));
        }
        return inputs;
    }

    /** The golden weights under canonical names, read from the upstream-layout PyTorch checkpoint. */
    public static synchronized WeightSource weights() {
        if (weights == null) {
            weights = CheckpointLoader.open(dir().resolve("sam3-tiny.pt"));
        }
        return weights;
    }

    /** A golden tensor as a float32 NDArray. */
    public static NDArray array(NDManager manager, RawTensor t) {
        return manager.create(t.toFloats(), new Shape(t.shape()));
    }

    /** A golden boolean tensor as a BOOLEAN NDArray. */
    public static NDArray booleans(NDManager manager, RawTensor t) {
        return manager.create(t.toBooleans(), new Shape(t.shape()));
    }

    /** The golden output {@code stage} as a float32 NDArray. */
    public static NDArray output(NDManager manager, String stage) {
        return array(manager, outputs().get(stage));
    }

    /** Compares a computed stage with the golden output of the same name under the float tolerance. */
    public static StageComparison compare(String stage, NDArray actual) {
        RawTensor ref = outputs().get(stage);
        NDArray f = actual.getDataType() == DataType.FLOAT32 ? actual : actual.toType(DataType.FLOAT32, false);
        return StageComparison.of(stage, f.getShape().getShape(), f.toFloatArray(), ref.shape(),
                PaddingPositions.asComputed(stage, ref.shape(), ref.toFloats(), outputs()::get));
    }

    /** Asserts that a computed stage matches its golden output within the float tolerance. */
    public static void assertStage(String stage, NDArray actual) {
        StageComparison c = compare(stage, actual);
        assertTrue(c.passed(), c.reportLine());
    }
}
