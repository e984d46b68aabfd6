package io.sam3stream.smoke;

import io.sam3stream.imaging.BinaryMask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The reference deployment's smoke criteria for one prompt's answer: at least one instance, a top score above
 * 0.5, a non-empty top mask covering 0.1 %..60 % of the image, at least 95 % of its pixels inside its box, and
 * the box inside the image.
 */
public final class SmokeChecks {

    /** The verdict: each failed check by name (empty when all pass) and the one-line summary. */
    public record Verdict(List<String> failures, String line) {
        public boolean passed() {
            return failures.isEmpty();
        }
    }

    private SmokeChecks() {}

    /**
     * @param prompt    the prompt asked
     * @param width     image width
     * @param height    image height
     * @param healthOk  whether the health check passed (true for in-process runs)
     * @param instances the answer's instances
     * @param forwardMs the reported forward time
     * @param totalMs   the reported total time
     */
    public static Verdict judge(String prompt, int width, int height, boolean healthOk, List<SmokeInstance> instances,
            double forwardMs, double totalMs) {
        List<String> failures = new ArrayList<>();
        if (!healthOk) {
            failures.add("health not ok");
        }
        if (instances.isEmpty()) {
            failures.add("no instance");
            return new Verdict(failures, String.format(Locale.ROOT, "FAIL prompt='%s' instances=0 (%s)", prompt,
                    String.join("; ", failures)));
        }
        SmokeInstance top = instances.stream().max(Comparator.comparingDouble(SmokeInstance::score)).orElseThrow();
        BinaryMask mask = top.mask();
        double areaFraction = (double) mask.area() / ((long) width * height);
        double inside = mask.area() == 0 ? 0 : (double) pixelsInside(mask, top.boxXyxy()) / mask.area();
        float[] b = top.boxXyxy();
        if (top.score() <= 0.5f) {
            failures.add("top score " + top.score() + " <= 0.5");
        }
        if (mask.area() == 0) {
            failures.add("top mask empty");
        } else if (areaFraction < 0.001 || areaFraction > 0.60) {
            failures.add(String.format(Locale.ROOT, "top mask covers %.4f of the image, outside [0.001, 0.60]",
                    areaFraction));
        }
        if (inside < 0.95) {
            failures.add(String.format(Locale.ROOT, "only %.1f%% of the top mask inside its box", 100 * inside));
        }
        if (b[0] < 0 || b[1] < 0 || b[2] > width || b[3] > height || b[2] <= b[0] || b[3] <= b[1]) {
            failures.add("box not inside the image");
        }
        String line = String.format(Locale.ROOT,
                "%s prompt='%s' instances=%d top_score=%.4f area_frac=%.4f inside_box=%.1f%% box=[%.1f, %.1f, %.1f,"
                        + " %.1f] forward_ms=%.1f total_ms=%.1f%s",
                failures.isEmpty() ? "PASS" : "FAIL", prompt, instances.size(), top.score(), areaFraction,
                100 * inside, b[0], b[1], b[2], b[3], forwardMs, totalMs,
                failures.isEmpty() ? "" : " (" + String.join("; ", failures) + ")");
        return new Verdict(failures, line);
    }

    /** Mask pixels whose centre lies inside the box. */
    static long pixelsInside(BinaryMask mask, float[] box) {
        long count = 0;
        for (int y = 0; y < mask.height(); y++) {
            for (int x = 0; x < mask.width(); x++) {
                if (mask.get(x, y) && x + 0.5f >= box[0] && x + 0.5f <= box[2] && y + 0.5f >= box[1]
                        && y + 0.5f <= box[3]) {
                    count++;
                }
            }
        }
        return count;
    }
}
