package io.sam3stream.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.Sam3ConfigReader;
import io.sam3stream.parity.StageComparison;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import io.sam3stream.weights.WeightSource;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The tiny golden set shipped in the test resources ({@code golden/sam3-tiny}): upstream SAM3's weights, inputs
 * and every stage's output for a small random model. Opened files are cached for the whole test JVM.
 */
public final class TinyGolden {

    private static SafetensorsFile outputs;
    private static SafetensorsFile inputs;
    private static WeightSource weights;

    private TinyGolden() {}

    /** The folder holding the golden files. */
    public static Path dir() {
        try {
            return Path.of(TinyGolden.class.getResource("/golden/sam3-tiny/config.json").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
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

    /**
     * The golden weights under canonical names. Until the PyTorch checkpoint reader lands this reads the
     * canonical safetensors copy from the shared golden folder, stripping the {@code detector.} prefix.
     */
    public static synchronized WeightSource weights() {
        if (weights == null) {
            Path file = Path.of("..", "..", "shared", "golden", "sam3-tiny", "sam3-tiny.safetensors");
            if (!Files.exists(file)) {
                file = Path.of("..", "shared", "golden", "sam3-tiny", "sam3-tiny.safetensors");
            }
            weights = new DetectorPrefixed(SafetensorsFile.open(file.toAbsolutePath().normalize()));
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
        return StageComparison.of(stage, f.getShape().getShape(), f.toFloatArray(), ref.shape(), ref.toFloats());
    }

    /** Asserts that a computed stage matches its golden output within the float tolerance. */
    public static void assertStage(String stage, NDArray actual) {
        StageComparison c = compare(stage, actual);
        assertTrue(c.passed(), c.reportLine());
    }

    /** Strips {@code detector.} and drops the complex RoPE tables, as the checkpoint loader does. */
    private static final class DetectorPrefixed implements WeightSource {
        private final SafetensorsFile file;
        private final Set<String> names;

        DetectorPrefixed(SafetensorsFile file) {
            this.file = file;
            this.names = file.names().stream()
                    .filter(n -> n.startsWith("detector.") && !n.endsWith(".freqs_cis"))
                    .map(n -> n.substring("detector.".length()))
                    .collect(Collectors.toUnmodifiableSet());
        }

        @Override
        public Set<String> names() {
            return names;
        }

        @Override
        public RawTensor get(String name) {
            return file.get("detector." + name);
        }

        @Override
        public String description() {
            return file.description();
        }

        @Override
        public void close() {
            file.close();
        }
    }
}
