package io.sam3stream.weights;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Opens any SAM3 checkpoint as a {@link WeightSource} under canonical names: upstream's image-model state-dict
 * keys without the {@code detector.} prefix, e.g. {@code backbone.vision_backbone.trunk.pos_embed}.
 *
 * <p>Files are recognised by content: a zip archive is a {@code torch.save} checkpoint ({@link PytorchCheckpoint},
 * flat or wrapped as {@code {"model": {...}}}), anything else a safetensors file. The naming is recognised from the
 * tensor names: Meta's {@code detector.*} keys, Hugging Face's {@code detector_model.*} keys
 * ({@code HfNameMapping}), or names that are canonical already. Either file of {@code facebook/sam3} loads the same
 * model; the one difference is {@code pos_embed}, which has 577 rows (a leading cls row) from {@code sam3.pt} and
 * 576 from {@code model.safetensors}; the model accepts both and ignores the cls row.
 *
 * <p>Tensors the image model does not use are skipped (docs/MODEL.md §12.3): the video tracker, the tracker's
 * duplicate neck {@code sam2_convs} inside the detector, and the complex64 {@code freqs_cis} RoPE tables, which the
 * model recomputes.
 */
public final class CheckpointLoader {

    private static final List<Pattern> SKIPPED = List.of(
            Pattern.compile("^tracker\\."), // the video tracker in sam3.pt
            Pattern.compile("^tracker_model\\."), // ... and in model.safetensors
            Pattern.compile("^tracker_neck\\."), // its neck in model.safetensors
            Pattern.compile("\\.sam2_convs\\."), // the tracker's duplicate neck inside sam3.pt's detector
            Pattern.compile("\\.freqs_cis$")); // complex64 RoPE tables

    /** The local-file-header signature that opens a zip archive. */
    private static final byte[] ZIP_MAGIC = {'P', 'K', 3, 4};

    /** The naming schemes of SAM3 checkpoints. */
    private enum Layout {
        /**
         * Meta's {@code sam3.pt}: the video model's state dict. Upstream's image builder
         * ({@code _load_checkpoint}) keeps every key containing {@code detector}, with {@code detector.} removed.
         */
        UPSTREAM("upstream detector.* names", names -> recipes(
                names.stream().filter(n -> n.contains("detector")).toList(), n -> n.replace("detector.", ""))),
        /** Hugging Face transformers' {@code model.safetensors}: {@code detector_model.*}, renamed and split. */
        HUGGING_FACE("Hugging Face detector_model.* names", HfNameMapping::recipes),
        /** Canonical names already, as a converted file holds them. */
        CANONICAL("canonical names", names -> recipes(names, Function.identity()));

        private final String label;
        private final Function<List<String>, Map<String, TensorRecipe>> mapping;

        Layout(String label, Function<List<String>, Map<String, TensorRecipe>> mapping) {
            this.label = label;
            this.mapping = mapping;
        }

        /** The layout of a file holding these tensor names. */
        static Layout of(List<String> names) {
            if (names.stream().anyMatch(n -> n.startsWith(HfNameMapping.PREFIX))) {
                return HUGGING_FACE;
            }
            return names.stream().anyMatch(n -> n.contains("detector")) ? UPSTREAM : CANONICAL;
        }

        private static Map<String, TensorRecipe> recipes(List<String> stored, Function<String, String> rename) {
            Map<String, TensorRecipe> recipes = new TreeMap<>();
            for (String name : stored) {
                if (recipes.put(rename.apply(name), new TensorRecipe.Stored(name)) != null) {
                    throw new CheckpointException("two tensors map to " + rename.apply(name));
                }
            }
            return recipes;
        }
    }

    private CheckpointLoader() {}

    /**
     * Opens a {@code .pt} or {@code .safetensors} checkpoint under canonical names. Tensor bytes stay in the
     * memory-mapped file until requested; the caller closes the source.
     *
     * @throws CheckpointException if the file cannot be read, is not a checkpoint, or holds no image-model tensor
     */
    public static WeightSource open(Path file) {
        WeightSource stored = isZip(file) ? PytorchCheckpoint.open(file) : SafetensorsFile.open(file);
        try {
            List<String> kept = stored.names().stream().filter(n -> SKIPPED.stream().noneMatch(
                    p -> p.matcher(n).find())).toList();
            Layout layout = Layout.of(kept);
            Map<String, TensorRecipe> recipes = layout.mapping.apply(kept);
            if (recipes.isEmpty()) {
                throw new CheckpointException(file + " holds no SAM3 image-model tensors");
            }
            return new CanonicalWeights(stored, recipes, stored.description() + " (" + layout.label + ")");
        } catch (RuntimeException e) {
            stored.close();
            throw e;
        }
    }

    /** True for a zip archive, as every {@code torch.save} file since PyTorch 1.6 is. */
    private static boolean isZip(Path file) {
        byte[] start = new byte[ZIP_MAGIC.length];
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(start, 0, start.length) == start.length && Arrays.equals(start, ZIP_MAGIC);
        } catch (IOException e) {
            throw new CheckpointException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
