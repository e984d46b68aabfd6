package io.sam3stream.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ReadmeConfigurationTableTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z][A-Z0-9_]*)` \\| ([^|]*) \\| ([^|]*) \\|",
            Pattern.MULTILINE);

    @Test
    void readmeTableListsExactlyTheKnobsWithTheirDefaultsAndRanges() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String section = readme.substring(readme.indexOf("## Configuration"));
        Set<String> documented = new TreeSet<>();
        Matcher m = ROW.matcher(section);
        while (m.find()) {
            String name = m.group(1);
            documented.add(name);
            String shownDefault = m.group(2).trim();
            String expected = Knob.valueOf(name).defaultValue().isEmpty()
                    ? "—"
                    : "`" + Knob.valueOf(name).defaultValue() + "`";
            assertEquals(expected, shownDefault, "default of " + name + " in README");
            Knob knob = Knob.valueOf(name);
            String expectedRange = knob.isNumeric() ? "`" + knob.min() + ".." + knob.max() + "`" : "—";
            assertEquals(expectedRange, m.group(3).trim(), "allowed values of " + name + " in README");
        }
        Set<String> knobs = Arrays.stream(Knob.values()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(knobs, documented);
    }
}
