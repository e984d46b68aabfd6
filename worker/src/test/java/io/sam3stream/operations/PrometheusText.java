package io.sam3stream.operations;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Prometheus text exposition as samples, for tests that read what a scrape says. */
public final class PrometheusText {

    /** One line of the exposition: a metric name, its labels and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    /** Parses {@code text}, skipping comments. */
    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name = brace >= 0 ? line.substring(0, brace) : line.substring(0, space);
            Map<String, String> labels = new LinkedHashMap<>();
            if (brace >= 0) {
                Matcher m = LABEL.matcher(line.substring(brace, line.lastIndexOf('}')));
                while (m.find()) {
                    labels.put(m.group(1), m.group(2));
                }
            }
            samples.add(new Sample(name, labels, Double.parseDouble(line.substring(space + 1))));
        }
        return new PrometheusText(samples);
    }

    /** Every sample named {@code name} whose labels include {@code labels} (given as name, value, ...). */
    public List<Sample> find(String name, String... labels) {
        return samples.stream().filter(s -> s.name().equals(name) && hasLabels(s, labels)).toList();
    }

    /**
     * The value of the one sample named {@code name} with {@code labels}.
     *
     * @throws AssertionError when there is none, or more than one
     */
    public double value(String name, String... labels) {
        List<Sample> found = find(name, labels);
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " samples " + name + " " + List.of(labels) + ": " + found);
        }
        return found.get(0).value();
    }

    private static boolean hasLabels(Sample s, String[] labels) {
        for (int i = 0; i + 1 < labels.length; i += 2) {
            if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                return false;
            }
        }
        return true;
    }
}
