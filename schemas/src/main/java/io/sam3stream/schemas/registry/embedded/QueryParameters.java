package io.sam3stream.schemas.registry.embedded;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The query string of a registry request: Confluent's flags ({@code deleted=true}, ...) and paging. */
final class QueryParameters {

    private final Map<String, String> values = new HashMap<>();

    QueryParameters(String rawQuery) {
        if (rawQuery == null) {
            return;
        }
        for (String parameter : rawQuery.split("&")) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            String value = equals < 0 ? "" : parameter.substring(equals + 1);
            values.put(decode(name), decode(value));
        }
    }

    /** Whether {@code name} is given as {@code true} (in any case); false when absent. */
    boolean flag(String name) {
        return "true".equalsIgnoreCase(values.get(name));
    }

    /** The value of {@code name}, or {@code fallback} when absent. */
    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    /**
     * The page of {@code items} that {@code offset} (default 0) and {@code limit} (default -1, everything)
     * select, as Confluent pages its listings.
     */
    <T> List<T> page(List<T> items) {
        int offset = Math.max(0, number("offset", 0));
        int limit = number("limit", -1);
        if (offset >= items.size()) {
            return List.of();
        }
        int end = limit < 0 ? items.size() : (int) Math.min(items.size(), (long) offset + limit);
        return items.subList(offset, end);
    }

    private int number(String name, int fallback) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new RegistryApiException(400, 400, "Query parameter " + name + " must be an integer, not '"
                    + value + "'");
        }
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
