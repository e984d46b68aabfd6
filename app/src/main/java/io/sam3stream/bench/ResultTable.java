package io.sam3stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The table {@code sam3 bench} prints: one row per comparison, measured beside its reference, as a ratio. */
public final class ResultTable {

    /**
     * @param what      the measurement
     * @param measured  its value, with units
     * @param reference what it is compared with, with units and source
     * @param ratio     measured / reference (for a rate: reference / measured, so that lower is better everywhere),
     *                  or NaN where there is none
     * @param goal      the target ratio, or NaN where there is none
     */
    public record Row(String what, String measured, String reference, double ratio, double goal) {

        /** "yes"/"no" when there is a goal, else "-". */
        String met() {
            return Double.isNaN(goal) || Double.isNaN(ratio) ? "-" : ratio <= goal ? "yes" : "no";
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Row> rows = new ArrayList<>();

    /** Adds a row. */
    public void add(Row row) {
        rows.add(row);
    }

    /** Adds a row without a ratio or goal (context for the rows around it). */
    public void note(String what, String measured, String reference) {
        rows.add(new Row(what, measured, reference, Double.NaN, Double.NaN));
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    /** Prints the rows as a Markdown table. */
    public void print(PrintWriter out) {
        out.println("| measurement | measured | reference | ratio | goal | met |");
        out.println("|---|---|---|---|---|---|");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", r.what(), r.measured(), r.reference(),
                    Double.isNaN(r.ratio()) ? "-" : String.format(Locale.ROOT, "%.3f", r.ratio()),
                    Double.isNaN(r.goal()) ? "-" : String.format(Locale.ROOT, "≤ %.2f", r.goal()), r.met());
        }
        out.flush();
    }

    /**
     * Writes the rows as a JSON array of objects (a missing ratio or goal as null), for a command that runs a
     * benchmark in another process and reads its figures back ({@link #readRows}).
     */
    public void writeRows(Path file) throws IOException {
        ArrayNode array = JSON.createArrayNode();
        for (Row r : rows) {
            ObjectNode o = array.addObject().put("what", r.what()).put("measured", r.measured())
                    .put("reference", r.reference());
            putNumber(o, "ratio", r.ratio());
            putNumber(o, "goal", r.goal());
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), array);
    }

    /** The rows {@link #writeRows} wrote. */
    public static List<Row> readRows(Path file) throws IOException {
        List<Row> read = new ArrayList<>();
        for (JsonNode o : JSON.readTree(file.toFile())) {
            read.add(new Row(o.path("what").asText(), o.path("measured").asText(), o.path("reference").asText(),
                    number(o.path("ratio")), number(o.path("goal"))));
        }
        return read;
    }

    private static void putNumber(ObjectNode o, String field, double value) {
        if (Double.isNaN(value)) {
            o.putNull(field); // JSON has no NaN
        } else {
            o.put(field, value);
        }
    }

    private static double number(JsonNode node) {
        return node.isNumber() ? node.asDouble() : Double.NaN;
    }
}
