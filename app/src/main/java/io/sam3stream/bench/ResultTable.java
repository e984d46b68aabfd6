package io.sam3stream.bench;

import java.io.PrintWriter;
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
}
