package io.sam3stream.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place configuration is read: every {@link Knob} from an environment map, parsed and range-checked on
 * access, plus Kafka client properties passed through from {@code KAFKA_*} variables. Components receive a
 * {@code Settings} (or values taken from it) instead of reading the environment themselves, so tests can run
 * several differently configured components in one JVM.
 */
public final class Settings {

    /** The shortest and longest duration a duration knob accepts, and its short form ("90s", "24h"). */
    private static final Duration MIN_DURATION = Duration.ofSeconds(1);
    private static final Duration MAX_DURATION = Duration.ofDays(365);
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

    /**
     * Variables an earlier release read, with what replaced them: a process that is given one refuses to start
     * rather than silently ignore what its operator asked for.
     */
    private static final Map<String, String> RETIRED = Map.of("SAM3_DTYPE",
            "SAM3_PRECISION (auto | fp32 | bf16; bf16 now computes in bfloat16 as well as storing the weights in it)");

    /**
     * Variables of the reference server that mean nothing here, with why: accepted (a deployment written for the
     * reference keeps working) and reported by {@link #ignoredVariables} so that the services log them at start.
     */
    private static final Map<String, String> IGNORED = Map.of("SAM3_TORCH_COMPILE",
            "the reference server's torch.compile of its decoder; this engine runs its prompt side as TorchScript"
                    + " graphs compiled at start, always");

    /** {@code KAFKA_*} variables that are ours rather than client properties. */
    private static final Set<String> OWN_KAFKA_VARIABLES = Set.of(Knob.KAFKA_BOOTSTRAP_SERVERS.name());

    private final Map<Knob, String> values;
    private final Properties kafkaOverrides;
    private final List<String> ignoredVariables;

    private Settings(Map<Knob, String> values, Properties kafkaOverrides, List<String> ignoredVariables) {
        this.values = values;
        this.kafkaOverrides = kafkaOverrides;
        this.ignoredVariables = ignoredVariables;
    }

    /** Settings of this process: the real environment. */
    public static Settings fromEnvironment() {
        return from(System.getenv());
    }

    /**
     * Settings from an explicit environment map (missing or empty variables take their defaults).
     *
     * @throws ConfigException if the map sets a retired variable (the message names its replacement)
     */
    public static Settings from(Map<String, String> env) {
        RETIRED.forEach((name, replacement) -> {
            String v = env.get(name);
            if (v != null && !v.isBlank()) {
                throw new ConfigException(name + " is no longer read; set " + replacement + " instead");
            }
        });
        Map<Knob, String> values = new EnumMap<>(Knob.class);
        for (Knob k : Knob.values()) {
            String v = env.get(k.name());
            values.put(k, v == null || v.isBlank() ? k.defaultValue() : v.trim());
        }
        Properties kafka = new Properties();
        env.forEach((name, value) -> {
            if (name.startsWith("KAFKA_") && !OWN_KAFKA_VARIABLES.contains(name) && value != null) {
                kafka.setProperty(name.substring("KAFKA_".length()).toLowerCase(Locale.ROOT).replace('_', '.'),
                        value);
            }
        });
        List<String> ignored = new ArrayList<>();
        IGNORED.forEach((name, why) -> {
            String v = env.get(name);
            if (v != null) {
                ignored.add(name + "=" + v + " is ignored: " + why);
            }
        });
        ignored.sort(null);
        return new Settings(values, kafka, List.copyOf(ignored));
    }

    /**
     * One line per variable of the reference server that is set but means nothing here ({@code SAM3_TORCH_COMPILE}),
     * saying why: each service logs them at start, so that nothing an operator set is dropped in silence.
     */
    public List<String> ignoredVariables() {
        return ignoredVariables;
    }

    /** A copy with some knobs replaced (command-line options override the environment this way). */
    public Settings with(Knob knob, String value) {
        Map<Knob, String> copy = new EnumMap<>(values);
        copy.put(knob, value == null || value.isBlank() ? knob.defaultValue() : value.trim());
        return new Settings(copy, kafkaOverrides, ignoredVariables);
    }

    /** The raw string value ("" when unset and without default). */
    public String get(Knob knob) {
        return values.get(knob);
    }

    /** True when the knob has a non-empty value. */
    public boolean isSet(Knob knob) {
        return !values.get(knob).isEmpty();
    }

    /** An integer knob that fits an int, within its range ({@link Knob#min}, {@link Knob#max}). */
    public int getInt(Knob knob) {
        if (knob.max() > Integer.MAX_VALUE || knob.min() < Integer.MIN_VALUE) {
            throw new IllegalArgumentException(knob + " does not fit an int: read it with getLong");
        }
        return (int) getLong(knob);
    }

    /** An integer knob, within its range ({@link Knob#min}, {@link Knob#max}): every reader gets the same bounds. */
    public long getLong(Knob knob) {
        long min = knob.min();
        long max = knob.max();
        String raw = values.get(knob);
        long v;
        try {
            v = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new ConfigException(knob + "=" + raw + " is not an integer");
        }
        if (v < min || v > max) {
            throw new ConfigException(knob + "=" + raw + " is outside [" + min + ", " + max + "]");
        }
        return v;
    }

    /**
     * A duration knob: a whole number followed by {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}, or an
     * ISO-8601 duration ({@code PT24H}), between one second and 365 days.
     */
    public Duration getDuration(Knob knob) {
        String raw = values.get(knob).trim();
        Duration d;
        try {
            d = raw.toUpperCase(Locale.ROOT).startsWith("P") ? Duration.parse(raw) : parseShortDuration(raw);
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            d = null;
        }
        if (d == null) {
            throw new ConfigException(knob + "=" + raw + " is not a duration: write it as 90s, 30m, 24h, 7d or PT24H");
        }
        if (d.compareTo(MIN_DURATION) < 0 || d.compareTo(MAX_DURATION) > 0) {
            throw new ConfigException(knob + "=" + raw + " is outside [1s, 365d]");
        }
        return d;
    }

    /** "90s", "30m", "24h", "7d", "500ms"; null when the text has another form. */
    private static Duration parseShortDuration(String raw) {
        Matcher m = SHORT_DURATION.matcher(raw.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /**
     * An optional HTTP endpoint knob: empty when the knob is unset, else an absolute {@code http} or {@code https}
     * URL with a host.
     */
    public Optional<URI> getHttpUrl(Knob knob) {
        String raw = values.get(knob).trim();
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(raw);
        } catch (URISyntaxException e) {
            throw new ConfigException(knob + "=" + raw + " is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new ConfigException(knob + "=" + raw + " is not an http:// or https:// URL with a host");
        }
        return Optional.of(uri);
    }

    /** A boolean knob: 1/true/yes/on or 0/false/no/off. */
    public boolean getBoolean(Knob knob) {
        String raw = values.get(knob).toLowerCase(Locale.ROOT);
        return switch (raw) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off" -> false;
            default -> throw new ConfigException(knob + "=" + raw + " is not a boolean (use 1 or 0)");
        };
    }

    /** A knob restricted to a set of words (compared case-insensitively, returned lower-case). */
    public String getChoice(Knob knob, String... allowed) {
        String raw = values.get(knob).toLowerCase(Locale.ROOT);
        if (!Arrays.asList(allowed).contains(raw)) {
            throw new ConfigException(knob + "=" + raw + " is not one of " + Arrays.toString(allowed));
        }
        return raw;
    }

    /** A comma-separated list knob (empty list when unset). */
    public List<String> getList(Knob knob) {
        String raw = values.get(knob);
        if (raw.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(raw.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** Kafka client properties given as {@code KAFKA_<PROPERTY>} variables, applied over our own defaults. */
    public Properties kafkaOverrides() {
        Properties copy = new Properties();
        copy.putAll(kafkaOverrides);
        return copy;
    }
}
