package io.sam3stream.parity;

import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.Sam3ConfigReader;
import io.sam3stream.model.prompt.ExemplarBox;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A folder of upstream reference data laid out like the golden sets: {@code config.json} (optional: the
 * full-size preset otherwise), {@code inputs.safetensors} (the image and every case's token ids and boxes) and
 * the reference outputs ({@code outputs.safetensors}, or {@code outputs-sampled.safetensors} for full-size runs).
 */
public final class GoldenFolder implements AutoCloseable {

    private static final Pattern TOKEN_IDS = Pattern.compile("^([a-z]+\\d+)\\.token_ids$");
    private static final Pattern THRESHOLD = Pattern.compile("^([a-z]+\\d+)\\.post_t(\\d{3})\\.");

    private final Path dir;
    private final Sam3Config config;
    private final SafetensorsFile inputs;
    private final SafetensorsFile outputs;
    private final boolean sampled;

    private GoldenFolder(Path dir, Sam3Config config, SafetensorsFile inputs, SafetensorsFile outputs,
            boolean sampled) {
        this.dir = dir;
        this.config = config;
        this.inputs = inputs;
        this.outputs = outputs;
        this.sampled = sampled;
    }

    /** Opens a golden folder. */
    public static GoldenFolder open(Path dir) {
        Path configFile = dir.resolve("config.json");
        Sam3Config config = Files.exists(configFile) ? Sam3ConfigReader.read(configFile) : Sam3Config.fullSize();
        Path full = dir.resolve("outputs.safetensors");
        Path sampled = dir.resolve("outputs-sampled.safetensors");
        boolean isSampled = !Files.exists(full) && Files.exists(sampled);
        if (!Files.exists(full) && !isSampled) {
            throw new IllegalArgumentException(dir + " holds neither outputs.safetensors nor outputs-sampled.safetensors");
        }
        SafetensorsFile inputs = SafetensorsFile.open(dir.resolve("inputs.safetensors"));
        return new GoldenFolder(dir, config, inputs, SafetensorsFile.open(isSampled ? sampled : full), isSampled);
    }

    public Path dir() {
        return dir;
    }

    public Sam3Config config() {
        return config;
    }

    public SafetensorsFile inputs() {
        return inputs;
    }

    public SafetensorsFile outputs() {
        return outputs;
    }

    /** True for the sampled full-size layout ({@code NAME:idx}, {@code NAME:val}, {@code NAME:stats}). */
    public boolean sampled() {
        return sampled;
    }

    /** The preprocessed model input (1, 3, R, R). */
    public RawTensor preprocessedImage() {
        return inputs.get("image.preprocessed");
    }

    /** Original image height and width, from {@code image.uint8_hwc}. */
    public int[] imageHeightWidth() {
        long[] s = inputs.get("image.uint8_hwc").shape();
        return new int[] {Math.toIntExact(s[0]), Math.toIntExact(s[1])};
    }

    /** Every case of the folder, in name order. */
    public List<GoldenCase> cases() {
        List<GoldenCase> cases = new ArrayList<>();
        for (String name : new TreeSet<>(inputs.names())) {
            Matcher m = TOKEN_IDS.matcher(name);
            if (!m.matches()) {
                continue;
            }
            String prefix = m.group(1);
            cases.add(new GoldenCase(prefix, inputs.get(name).toLongs(), boxesOf(prefix), thresholdsOf(prefix)));
        }
        return cases;
    }

    private List<ExemplarBox> boxesOf(String prefix) {
        String boxesName = prefix + ".boxes_cxcywh";
        if (!inputs.contains(boxesName)) {
            return List.of();
        }
        float[] b = inputs.get(boxesName).toFloats();
        boolean[] labels = inputs.get(prefix + ".box_labels").toBooleans();
        List<ExemplarBox> boxes = new ArrayList<>();
        for (int i = 0; i < labels.length; i++) {
            boxes.add(new ExemplarBox(b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3], labels[i]));
        }
        return boxes;
    }

    private List<Integer> thresholdsOf(String prefix) {
        TreeSet<Integer> thresholds = new TreeSet<>();
        for (String name : outputs.names()) {
            Matcher m = THRESHOLD.matcher(name);
            if (m.find() && m.group(1).equals(prefix)) {
                thresholds.add(Integer.parseInt(m.group(2)));
            }
        }
        return List.copyOf(thresholds);
    }

    @Override
    public void close() {
        inputs.close();
        outputs.close();
    }
}
