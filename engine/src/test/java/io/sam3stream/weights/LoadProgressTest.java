package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.TinyGolden;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LoadProgressTest {

    @Test
    void readingEveryTensorOfTheTinyCheckpointReportsTenthsUpToTheWholeFile() throws Exception {
        Path checkpoint = TinyGolden.dir().resolve("sam3-tiny.pt");
        List<String> lines = new ArrayList<>();
        long tensorBytes = 0;
        try (WeightSource weights = new LoadProgress(CheckpointLoader.open(checkpoint), Files.size(checkpoint),
                lines::add)) {
            for (String name : weights.names()) {
                tensorBytes += weights.get(name).data().remaining();
            }
        }
        // the file is the tensors plus the pickle and zip framing: a little more than they are
        long file = Files.size(checkpoint);
        assertTrue(tensorBytes <= file && tensorBytes > 0.9 * file, tensorBytes + " of " + file);
        // a few large tensors make the steps uneven: at most one line per tenth, each further than the last
        assertTrue(lines.size() >= 3 && lines.size() <= 10, lines.toString());
        long previous = -1;
        for (String line : lines) {
            Matcher m = Pattern.compile("Loading checkpoint: [\\d.]+ MB of [\\d.]+ MB read \\((\\d+) %\\)").matcher(line);
            assertTrue(m.matches(), line);
            long percent = Long.parseLong(m.group(1));
            assertTrue(percent > previous, lines.toString());
            previous = percent;
        }
        assertTrue(previous >= 90, lines.toString());
    }

    @Test
    void withoutAFileSizeItCountsGigabytesRead() {
        List<String> lines = new ArrayList<>();
        RawTensor big = new RawTensor(DType.F32, new long[] {300L << 18}, java.nio.ByteBuffer.allocate(300 << 20));
        WeightSource one = new WeightSource() {
            @Override
            public java.util.Set<String> names() {
                return java.util.Set.of("w");
            }

            @Override
            public RawTensor get(String name) {
                return big;
            }

            @Override
            public String description() {
                return "one tensor";
            }

            @Override
            public void close() {}
        };
        new LoadProgress(one, 0, lines::add).get("w");
        assertEquals(List.of("Loading weights: 314.6 MB read"), lines);
    }
}
