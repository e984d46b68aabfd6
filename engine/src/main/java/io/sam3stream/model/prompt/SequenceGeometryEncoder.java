package io.sam3stream.model.prompt;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Embedding;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.fusion.ImageTokens;
import io.sam3stream.model.fusion.TransformerEncoderLayer;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.PromptGraphs;
import io.sam3stream.model.nn.StageLayouts;
import io.sam3stream.model.nn.StageSink;
import java.util.ArrayList;
import java.util.List;

/**
 * The geometry (exemplar box) encoder (upstream {@code SequenceGeometryEncoder},
 * {@code sam3/model/geometry_encoders.py}) with SAM3's settings: boxes encoded by direct projection, RoI pooling
 * and sine position encoding, plus a CLS token, refined by a stack of {@link TransformerEncoderLayer}s.
 *
 * <p>Every prompt, text-only ones included, goes through it: a prompt without boxes still contributes its CLS
 * token. Per prompt:
 * <ol>
 *   <li>each box becomes {@code label_embed(label) + boxes_direct_project(cx,cy,w,h)
 *       + boxes_pool_project(roi_align(img_pre_norm(image), box)) + boxes_pos_enc_project(sine(box))};</li>
 *   <li>the sequence is [boxes…, CLS]; prompts with fewer boxes than the largest in the batch are padded after
 *       their CLS, as upstream's right-padded concatenation places it;</li>
 *   <li>{@code norm(final_proj(·))}, then the layers (self-attention without positions, padding masked;
 *       cross-attention to the raw image tokens with their positions on the keys), then {@code encode_norm}.</li>
 * </ol>
 * Point prompts are not supported, so the {@code points_*} weights are not loaded.
 *
 * <p>Stages: {@code geo.roi_align} (boxes, C, k, k) when there are boxes, {@code geo.feats} (N+1, B, d)
 * sequence-first and {@code geo.mask} (B, N+1).
 */
public final class SequenceGeometryEncoder {

    private final NDArray labelEmbed;
    private final NDArray clsEmbed;
    private final Linear boxesDirectProject;
    private final NDArray boxesPoolWeight;
    private final NDArray boxesPoolBias;
    private final Linear boxesPosEncProject;
    private final LayerNorm imgPreNorm;
    private final Linear finalProj;
    private final LayerNorm norm;
    private final List<TransformerEncoderLayer> layers;
    private final LayerNorm encodeNorm;
    private final int roiSize;
    private final int heads;
    /**
     * The parameters after the box embeddings, for {@link PromptGraphs#geometryEncoder}; null for
     * {@link Precision#BF16_LINEAR}.
     */
    private final GraphWeights graph;

    private SequenceGeometryEncoder(Params geo, List<TransformerEncoderLayer> layers, int roiSize, int heads) {
        this.labelEmbed = geo.get("label_embed.weight");
        this.clsEmbed = geo.get("cls_embed.weight");
        this.boxesDirectProject = Linear.load(geo, "boxes_direct_project");
        this.boxesPoolWeight = geo.get("boxes_pool_project.weight");
        this.boxesPoolBias = geo.get("boxes_pool_project.bias");
        this.boxesPosEncProject = Linear.load(geo, "boxes_pos_enc_project");
        this.imgPreNorm = LayerNorm.load(geo, "img_pre_norm");
        this.finalProj = Linear.load(geo, "final_proj");
        this.norm = LayerNorm.load(geo, "norm");
        this.layers = layers;
        this.encodeNorm = LayerNorm.load(geo, "encode_norm");
        this.roiSize = roiSize;
        this.heads = heads;
        this.graph = geo.precision().singleFormat() ? graphWeights(geo.manager()) : null;
    }

    private GraphWeights graphWeights(NDManager owner) {
        GraphWeights.Builder graph = GraphWeights.builder();
        finalProj.addTo(graph, "final_proj");
        norm.addTo(graph, "norm");
        for (int i = 0; i < layers.size(); i++) {
            layers.get(i).addTo(graph, "encode." + i);
        }
        encodeNorm.addTo(graph, "encode_norm");
        return graph.build(owner);
    }

    /** Loads {@code geometry_encoder.*} from the model root. */
    public static SequenceGeometryEncoder load(Params root, Sam3Config config) {
        Params geo = root.sub("geometry_encoder");
        List<TransformerEncoderLayer> layers = new ArrayList<>(config.geometry().layers());
        for (int i = 0; i < config.geometry().layers(); i++) {
            layers.add(TransformerEncoderLayer.load(geo.sub("encode." + i), config.geometry().heads()));
        }
        return new SequenceGeometryEncoder(geo, List.copyOf(layers), config.roiSize(), config.geometry().heads());
    }

    /**
     * Encodes the geometric prompts of a batch of prompts on one image.
     *
     * @param prompts one entry per prompt of the batch (B ≥ 1)
     * @param image   the 1× feature level of the image (batch 1) with its positions
     * @param sink    receives the {@code geo.*} stages
     * @return (B, N+1, d) features and their padding mask, N being the largest box count of the batch
     * @throws IllegalArgumentException if there are no prompts or the image level holds more than one image
     */
    public GeometryEncoding encode(List<GeometryPrompt> prompts, ImageTokens image, StageSink sink) {
        if (prompts.isEmpty()) {
            throw new IllegalArgumentException("no prompts");
        }
        if (image.batchSize() != 1) {
            throw new IllegalArgumentException("prompts are encoded on one image, got " + image.batchSize());
        }
        List<ExemplarBox> boxes = prompts.stream().flatMap(p -> p.boxes().stream()).toList();
        NDArray boxEmbeddings = boxes.isEmpty() ? null : embedBoxes(boxes, image, sink);
        int maxBoxes = prompts.stream().mapToInt(p -> p.boxes().size()).max().orElseThrow();
        NDManager manager = image.tokens().getManager();
        NDArray sequence = assemble(prompts, boxEmbeddings, maxBoxes, manager);
        if (boxEmbeddings != null) {
            boxEmbeddings.close();
        }
        NDArray mask = paddingMask(prompts, maxBoxes, manager);
        NDArray features = graph != null && ComputeOptions.current().moduleGraphs()
                ? PromptGraphs.geometryEncoder(sequence, mask, image.tokens(), image.pos(), graph, layers.size(),
                        heads)
                : encodeSequence(sequence, mask, image);
        sequence.close();
        StageLayouts.recordSequenceFirst(sink, "geo.feats", features);
        sink.record("geo.mask", mask);
        return new GeometryEncoding(features, mask);
    }

    /** final_proj, norm, the layers and encode_norm, op by op: (B, N+1, d). */
    private NDArray encodeSequence(NDArray sequence, NDArray mask, ImageTokens image) {
        NDArray projected = finalProj.forward(sequence);
        NDArray x = norm.forward(projected);
        projected.close();
        for (TransformerEncoderLayer layer : layers) {
            NDArray next = layer.forward(x, null, mask, image.tokens(), image.pos(), null);
            x.close();
            x = next;
        }
        NDArray features = encodeNorm.forward(x);
        x.close();
        return features;
    }

    /** (boxes, d): the embedding of every box of the batch, in prompt order. */
    private NDArray embedBoxes(List<ExemplarBox> boxes, ImageTokens image, StageSink sink) {
        NDManager manager = image.tokens().getManager();
        int count = boxes.size();
        int numPosFeats = Math.toIntExact(image.channels() / 2);
        float[] coordinates = new float[count * 4];
        float[] sineEncodings = new float[count * (2 * numPosFeats + 2)];
        long[] labels = new long[count];
        for (int i = 0; i < count; i++) {
            ExemplarBox box = boxes.get(i);
            coordinates[4 * i] = box.cx();
            coordinates[4 * i + 1] = box.cy();
            coordinates[4 * i + 2] = box.width();
            coordinates[4 * i + 3] = box.height();
            float[] sine = BoxSineEncoding.encode(box, numPosFeats);
            System.arraycopy(sine, 0, sineEncodings, i * sine.length, sine.length);
            labels[i] = box.label();
        }

        NDArray embedding;
        try (NDArray cxcywh = manager.create(coordinates, new Shape(count, 4))) {
            embedding = boxesDirectProject.forward(cxcywh);
        }
        try (NDArray pooled = poolBoxes(boxes, image, sink);
                NDArray flat = pooled.reshape(count, -1)) {
            embedding.addi(flat);
        }
        try (NDArray sine = manager.create(sineEncodings, new Shape(count, 2 * numPosFeats + 2));
                NDArray projected = boxesPosEncProject.forward(sine)) {
            embedding.addi(projected);
        }
        try (NDArray labelIds = manager.create(labels);
                NDArray labelEmbedding = Embedding.embedding(labelIds, labelEmbed, SparseFormat.DENSE)
                        .singletonOrThrow()) {
            NDArray out = labelEmbedding.add(embedding);
            embedding.close();
            return out;
        }
    }

    /**
     * {@code boxes_pool_project} (a k×k convolution, so one value per channel) over the RoI-aligned
     * {@code img_pre_norm} features of every box: (boxes, d, 1, 1).
     */
    private NDArray poolBoxes(List<ExemplarBox> boxes, ImageTokens image, StageSink sink) {
        int height = image.height();
        int width = image.width();
        float[][] corners = boxes.stream().map(b -> b.cornersOn(width, height)).toArray(float[][]::new);
        NDArray normed = imgPreNorm.forward(image.tokens());
        NDArray roi;
        try (NDArray tokens = normed.reshape((long) height * width, image.channels());
                NDArray channelsFirst = tokens.transpose(1, 0);
                NDArray map = channelsFirst.reshape(image.channels(), height, width)) {
            roi = RoiAlign.align(map, corners, roiSize);
        }
        normed.close();
        sink.record("geo.roi_align", roi);
        NDArray pooled = Conv2d.conv2d(roi, boxesPoolWeight, boxesPoolBias).singletonOrThrow();
        roi.close();
        return pooled;
    }

    /** (B, N+1, d) in {@code manager}: per prompt [its boxes, CLS, zero padding]. */
    private NDArray assemble(List<GeometryPrompt> prompts, NDArray boxEmbeddings, int maxBoxes, NDManager manager) {
        NDArray sequence = manager.zeros(new Shape(prompts.size(), maxBoxes + 1, clsEmbed.getShape().get(1)));
        int offset = 0;
        for (int b = 0; b < prompts.size(); b++) {
            int n = prompts.get(b).boxes().size();
            if (n > 0) {
                try (NDArray own = boxEmbeddings.get(new NDIndex("{}:{}", offset, offset + n))) {
                    sequence.set(new NDIndex("{}, 0:{}", b, n), own);
                }
            }
            sequence.set(new NDIndex("{}, {}:{}", b, n, n + 1), clsEmbed);
            offset += n;
        }
        return sequence;
    }

    /** (B, N+1): true at the positions after each prompt's CLS token. */
    private static NDArray paddingMask(List<GeometryPrompt> prompts, int maxBoxes, NDManager manager) {
        int length = maxBoxes + 1;
        boolean[] padding = new boolean[prompts.size() * length];
        for (int b = 0; b < prompts.size(); b++) {
            for (int j = prompts.get(b).boxes().size() + 1; j < length; j++) {
                padding[b * length + j] = true;
            }
        }
        return manager.create(padding, new Shape(prompts.size(), length));
    }
}
