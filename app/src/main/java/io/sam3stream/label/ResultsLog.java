package io.sam3stream.label;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON-lines log of a run, beside its COCO file: a first line naming the query, then one line per answered
 * image, with the raw {@code /predict} JSON or the reason it failed. Each line is written and flushed as the answer
 * arrives, so the log is also the run's state: opening it again resumes, with every image that has a result counted
 * as done, and a last line cut short by a kill dropped.
 */
public final class ResultsLog implements AutoCloseable {

    private static final String FORMAT_FIELD = "sam3_label_log";
    private static final int FORMAT_VERSION = 1;

    private final ObjectMapper mapper;
    private final Path path;
    private final OutputStream out;
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    /** One image's latest answer: its {@code /predict} JSON, or the reason it failed. */
    public record Entry(String fileName, JsonNode result, String error) {
        public boolean done() {
            return result != null;
        }
    }

    private ResultsLog(ObjectMapper mapper, Path path, OutputStream out) {
        this.mapper = mapper;
        this.path = path;
        this.out = out;
    }

    /**
     * Opens the log at {@code path}, reading what an earlier run of the same query left there.
     *
     * @throws IllegalArgumentException when the log was written for another query, or is not such a log
     */
    public static ResultsLog open(Path path, LabelQuery query, ObjectMapper mapper) throws IOException {
        ObjectNode header = mapper.createObjectNode();
        header.put(FORMAT_FIELD, FORMAT_VERSION);
        header.set("query", query.toJson(mapper));
        Map<String, Entry> previous = new LinkedHashMap<>();
        long keep = 0;
        if (Files.exists(path)) {
            byte[] bytes = Files.readAllBytes(path);
            int lineStart = 0;
            boolean first = true;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] != '\n') {
                    continue;
                }
                JsonNode line = mapper.readTree(new String(bytes, lineStart, i - lineStart, StandardCharsets.UTF_8));
                if (first) {
                    if (line.path(FORMAT_FIELD).asInt() != FORMAT_VERSION) {
                        throw new IllegalArgumentException(path + " is not a sam3 label log");
                    }
                    if (!line.get("query").equals(header.get("query"))) {
                        throw new IllegalArgumentException(path + " holds a run with other prompts or settings ("
                                + line.get("query") + "); write to another --out, or delete it to start again");
                    }
                    first = false;
                } else {
                    Entry e = new Entry(line.get("file").asText(), line.get("result"),
                            line.hasNonNull("error") ? line.get("error").asText() : null);
                    previous.put(e.fileName(), e);
                }
                lineStart = i + 1;
                keep = lineStart;
            }
        }
        if (keep > 0) {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.truncate(keep); // a line cut short by a kill would run into the next one
            }
        }
        OutputStream out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        ResultsLog log = new ResultsLog(mapper, path, out);
        log.entries.putAll(previous);
        if (keep == 0) {
            log.writeLine(header);
        }
        return log;
    }

    /** Where the log is. */
    public Path path() {
        return path;
    }

    /** True when {@code fileName} already has a result (failed images are tried again). */
    public synchronized boolean isDone(String fileName) {
        Entry e = entries.get(fileName);
        return e != null && e.done();
    }

    /** Records the answer to {@code fileName}. */
    public synchronized void recordResult(String fileName, byte[] predictJson) throws IOException {
        JsonNode result = mapper.readTree(predictJson);
        ObjectNode line = mapper.createObjectNode().put("file", fileName);
        line.set("result", result);
        writeLine(line);
        entries.put(fileName, new Entry(fileName, result, null));
    }

    /** Records why {@code fileName} could not be labelled. */
    public synchronized void recordFailure(String fileName, String reason) throws IOException {
        writeLine(mapper.createObjectNode().put("file", fileName).put("error", reason));
        entries.put(fileName, new Entry(fileName, null, reason));
    }

    /** The latest entry of {@code fileName}, or null when it has none. */
    public synchronized Entry entry(String fileName) {
        return entries.get(fileName);
    }

    private void writeLine(JsonNode line) throws IOException {
        byte[] bytes = mapper.writeValueAsBytes(line);
        byte[] withNewline = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, withNewline, 0, bytes.length);
        withNewline[bytes.length] = '\n';
        out.write(withNewline); // one write per line: a kill leaves at most the last line partial
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
