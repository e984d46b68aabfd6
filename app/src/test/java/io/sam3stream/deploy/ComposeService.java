package io.sam3stream.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One service of docker-compose.yml, read in the forms the file uses. */
final class ComposeService {

    private final String name;
    private final JsonNode node;

    ComposeService(String name, JsonNode node) {
        this.name = name;
        this.node = node;
    }

    String name() {
        return name;
    }

    /** {@code image:}, empty for a service that is built. */
    String image() {
        return node.path("image").asText("");
    }

    /** The name other containers reach it by: its {@code hostname:} when set, else the service name. */
    boolean isReachableAs(String host) {
        return host.equals(name) || host.equals(node.path("hostname").asText(name));
    }

    /** {@code environment:}, in map or {@code KEY=VALUE} list form. */
    Map<String, String> environment() {
        JsonNode env = node.path("environment");
        Map<String, String> vars = new LinkedHashMap<>();
        if (env.isArray()) {
            env.forEach(entry -> {
                String[] kv = entry.asText().split("=", 2);
                vars.put(kv[0], kv.length > 1 ? kv[1] : "");
            });
        } else {
            env.properties().forEach(e -> vars.put(e.getKey(), e.getValue().asText()));
        }
        return vars;
    }

    /** {@code ports:} in short syntax, {@code host:container}. */
    List<String> ports() {
        return texts(node.path("ports"));
    }

    /** {@code expose:}: container ports reachable by the other services but not published on the host. */
    List<String> expose() {
        return texts(node.path("expose"));
    }

    /** {@code profiles:}; a service with none starts with every {@code docker compose up}. */
    List<String> profiles() {
        return texts(node.path("profiles"));
    }

    /** {@code command:}, which this file writes as a list so no shell splitting is involved. */
    List<String> command() {
        JsonNode command = node.path("command");
        if (!command.isMissingNode() && !command.isArray()) {
            throw new IllegalStateException(name + ": command must be a list");
        }
        return texts(command);
    }

    /** {@code tmpfs:} mount points. */
    List<String> tmpfs() {
        JsonNode tmpfs = node.path("tmpfs");
        return tmpfs.isArray() ? texts(tmpfs) : tmpfs.isMissingNode() ? List.of() : List.of(tmpfs.asText());
    }

    /** {@code volumes:} entries (long syntax is a mapping, short syntax a string). */
    List<JsonNode> volumes() {
        List<JsonNode> volumes = new ArrayList<>();
        node.path("volumes").forEach(volumes::add);
        return volumes;
    }

    /** {@code depends_on:} as dependency → condition ({@code service_started} for the list form). */
    Map<String, String> dependsOn() {
        JsonNode deps = node.path("depends_on");
        Map<String, String> conditions = new LinkedHashMap<>();
        if (deps.isArray()) {
            deps.forEach(d -> conditions.put(d.asText(), "service_started"));
        } else {
            deps.properties().forEach(e ->
                    conditions.put(e.getKey(), e.getValue().path("condition").asText("service_started")));
        }
        return conditions;
    }

    /** The health check's command line with its CMD/CMD-SHELL marker removed, if the service has one. */
    Optional<String> healthcheck() {
        JsonNode test = node.path("healthcheck").path("test");
        if (test.isMissingNode()) {
            return Optional.empty();
        }
        if (!test.isArray()) {
            return Optional.of(test.asText());
        }
        List<String> parts = texts(test);
        return Optional.of(String.join(" ", parts.subList(1, parts.size())));
    }

    /** {@code build:}, missing for an image service. */
    JsonNode build() {
        return node.path("build");
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
