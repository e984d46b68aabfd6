package io.sam3stream.parity;

import io.sam3stream.model.prompt.ExemplarBox;
import java.util.List;

/**
 * One prompt of a golden folder ({@code p0}, {@code b0}, ...): its token ids and, for box cases, the exemplar
 * boxes in the model's normalised cx, cy, w, h.
 *
 * @param name       the case prefix
 * @param tokenIds   the 32 token ids upstream's tokenizer produced
 * @param boxes      exemplar boxes (empty for text-only cases)
 * @param thresholds score thresholds (in hundredths) the folder holds post-processed outputs for
 */
public record GoldenCase(String name, long[] tokenIds, List<ExemplarBox> boxes, List<Integer> thresholds) {}
