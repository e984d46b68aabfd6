package io.sam3stream.deploy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The stages and instructions of the repository's Dockerfile, as far as the deployment tests need them. */
final class Dockerfile {

    static final String PATH = "Dockerfile";

    /** One instruction, continuation lines joined. */
    record Instruction(String keyword, String arguments) {}

    /** {@code COPY [--from=stage] [--flag=...] source... destination}. */
    record Copy(Optional<String> from, List<String> sources, String destination) {}

    /** {@code FROM image AS name} and what follows it. */
    record Stage(String name, List<Instruction> instructions) {

        List<Copy> copies() {
            return instructions.stream().filter(i -> i.keyword().equals("COPY")).map(i -> parseCopy(i.arguments()))
                    .toList();
        }

        Optional<String> workdir() {
            return instructions.stream().filter(i -> i.keyword().equals("WORKDIR")).map(Instruction::arguments)
                    .reduce((first, second) -> second);
        }

        /** The ports of its {@code EXPOSE} instructions. */
        List<String> exposed() {
            return instructions.stream().filter(i -> i.keyword().equals("EXPOSE"))
                    .flatMap(i -> Arrays.stream(i.arguments().trim().split("\\s+"))).toList();
        }

        /** The variables its {@code ENV key=value ...} instructions set, the last setting of each. */
        Map<String, String> env() {
            Map<String, String> env = new LinkedHashMap<>();
            instructions.stream().filter(i -> i.keyword().equals("ENV"))
                    .flatMap(i -> Arrays.stream(i.arguments().trim().split("\\s+")))
                    .map(pair -> pair.split("=", 2))
                    .forEach(pair -> env.put(pair[0], pair.length == 2 ? pair[1] : ""));
            return env;
        }

        /** The packages its {@code RUN apt-get install} instructions install. */
        List<String> aptPackages() {
            return instructions.stream().filter(i -> i.keyword().equals("RUN"))
                    .flatMap(i -> Arrays.stream(i.arguments().split("&&")))
                    .map(String::trim)
                    .filter(command -> command.startsWith("apt-get install"))
                    .flatMap(command -> Arrays.stream(command.split("\\s+")).skip(2))
                    .filter(word -> !word.startsWith("-"))
                    .toList();
        }

        /** The exec-form ENTRYPOINT. */
        List<String> entrypoint() {
            String json = instructions.stream().filter(i -> i.keyword().equals("ENTRYPOINT"))
                    .map(Instruction::arguments).reduce((first, second) -> second)
                    .orElseThrow(() -> new AssertionError("stage " + name + " has no ENTRYPOINT"));
            try {
                return Arrays.asList(new ObjectMapper().readValue(json, String[].class));
            } catch (JsonProcessingException e) {
                throw new AssertionError("stage " + name + ": ENTRYPOINT is not in exec (JSON) form: " + json, e);
            }
        }
    }

    private final List<Stage> stages;

    private Dockerfile(List<Stage> stages) {
        this.stages = stages;
    }

    static Dockerfile load() {
        return parse(RepositoryFiles.text(PATH));
    }

    static Dockerfile parse(String text) {
        List<Stage> stages = new ArrayList<>();
        for (Instruction i : instructions(text)) {
            if (i.keyword().equals("FROM")) {
                String[] words = i.arguments().split("\\s+");
                boolean named = words.length >= 3 && words[words.length - 2].equalsIgnoreCase("AS");
                stages.add(new Stage(named ? words[words.length - 1] : "#" + stages.size(), new ArrayList<>()));
            } else if (stages.isEmpty()) {
                throw new IllegalArgumentException(i.keyword() + " before the first FROM");
            } else {
                stages.get(stages.size() - 1).instructions().add(i);
            }
        }
        return new Dockerfile(stages);
    }

    List<Stage> stages() {
        return stages;
    }

    List<String> stageNames() {
        return stages.stream().map(Stage::name).toList();
    }

    Stage stage(String name) {
        return stages.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(PATH + " has no stage " + name + "; it has " + stageNames()));
    }

    /** Instructions with comments dropped and backslash continuations joined. */
    private static List<Instruction> instructions(String text) {
        List<Instruction> instructions = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            boolean continues = line.endsWith("\\");
            pending.append(continues ? line.substring(0, line.length() - 1) : line).append(' ');
            if (!continues) {
                String joined = pending.toString().strip();
                int space = joined.indexOf(' ');
                instructions.add(new Instruction(joined.substring(0, space).toUpperCase(Locale.ROOT),
                        joined.substring(space + 1).strip()));
                pending.setLength(0);
            }
        }
        return instructions;
    }

    private static Copy parseCopy(String arguments) {
        List<String> words = new ArrayList<>(Arrays.asList(arguments.split("\\s+")));
        Optional<String> from = Optional.empty();
        while (!words.isEmpty() && words.get(0).startsWith("--")) {
            String flag = words.remove(0);
            if (flag.startsWith("--from=")) {
                from = Optional.of(flag.substring("--from=".length()));
            }
        }
        if (words.size() < 2 || words.get(0).startsWith("[")) {
            throw new IllegalArgumentException("COPY in a form these tests do not read: " + arguments);
        }
        return new Copy(from, List.copyOf(words.subList(0, words.size() - 1)), words.get(words.size() - 1));
    }
}
