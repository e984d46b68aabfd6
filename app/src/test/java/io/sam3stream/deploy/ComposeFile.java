package io.sam3stream.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** docker-compose.yml at the repository root. */
final class ComposeFile {

    static final String PATH = "docker-compose.yml";

    private final Map<String, ComposeService> services = new LinkedHashMap<>();

    private ComposeFile(JsonNode root) {
        root.path("services").properties().forEach(e ->
                services.put(e.getKey(), new ComposeService(e.getKey(), e.getValue())));
    }

    static ComposeFile load() {
        return new ComposeFile(RepositoryFiles.yaml(PATH));
    }

    Map<String, ComposeService> services() {
        return services;
    }

    /** A declared service; fails the test when it is not declared. */
    ComposeService service(String name) {
        ComposeService s = services.get(name);
        if (s == null) {
            throw new AssertionError(PATH + " declares no service " + name + "; it has " + services.keySet());
        }
        return s;
    }
}
