package io.sam3stream.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void aReferenceServerVariableThatMeansNothingHereIsAcceptedAndReported() {
        Settings s = Settings.from(Map.of("SAM3_TORCH_COMPILE", "1", "SAM3_MAX_PROMPTS", "2"));
        assertEquals(2, s.getInt(Knob.SAM3_MAX_PROMPTS));
        assertEquals(1, s.ignoredVariables().size());
        assertTrue(s.ignoredVariables().get(0).startsWith("SAM3_TORCH_COMPILE=1 is ignored: "),
                s.ignoredVariables().get(0));
        assertEquals(s.ignoredVariables(), s.with(Knob.SAM3_PORT, "1").ignoredVariables(), "kept by a copy");
        assertTrue(Settings.from(Map.of()).ignoredVariables().isEmpty());
    }

    @Test
    void unsetAndBlankVariablesTakeTheirDefaults() {
        Settings s = Settings.from(Map.of("SAM3_MAX_PROMPTS", "  "));
        assertEquals(4, s.getInt(Knob.SAM3_MAX_PROMPTS));
        assertEquals("facebook/sam3", s.get(Knob.HF_MODEL));
        assertFalse(s.isSet(Knob.SAM3_WEIGHTS_DIR));
    }

    @Test
    void outOfRangeAndMalformedNumbersNameTheVariable() {
        Settings s = Settings.from(Map.of("SAM3_MAX_SIDE", "0", "SAM3_WARMUP_RUNS", "two"));
        ConfigException range = assertThrows(ConfigException.class, () -> s.getInt(Knob.SAM3_MAX_SIDE));
        assertTrue(range.getMessage().contains("SAM3_MAX_SIDE=0"));
        ConfigException nan = assertThrows(ConfigException.class, () -> s.getInt(Knob.SAM3_WARMUP_RUNS));
        assertTrue(nan.getMessage().contains("not an integer"));
    }

    @Test
    void kafkaVariablesPassThroughAsClientPropertiesExceptOurOwn() {
        Settings s = Settings.from(Map.of(
                "KAFKA_SECURITY_PROTOCOL", "SSL",
                "KAFKA_MAX_POLL_RECORDS", "1",
                "KAFKA_BOOTSTRAP_SERVERS", "broker:9092"));
        assertEquals("SSL", s.kafkaOverrides().getProperty("security.protocol"));
        assertEquals("1", s.kafkaOverrides().getProperty("max.poll.records"));
        assertFalse(s.kafkaOverrides().containsKey("bootstrap.servers"));
        assertEquals("broker:9092", s.get(Knob.KAFKA_BOOTSTRAP_SERVERS));
    }

    @Test
    void booleansChoicesAndListsAreParsedStrictly() {
        Settings s = Settings.from(Map.of("TT_FUSED", "0", "SAM3_PRECISION", "BF16", "SAM3_API_KEYS", "a, b,,c"));
        assertFalse(s.getBoolean(Knob.TT_FUSED));
        assertEquals("bf16", s.getChoice(Knob.SAM3_PRECISION, "auto", "fp32", "bf16"));
        assertEquals(List.of("a", "b", "c"), s.getList(Knob.SAM3_API_KEYS));
        assertThrows(ConfigException.class, () -> s.with(Knob.TT_FUSED, "maybe").getBoolean(Knob.TT_FUSED));
        assertThrows(ConfigException.class, () -> s.getChoice(Knob.SAM3_BACKEND, "tt"));
    }

    @Test
    void aRetiredVariableIsRefusedWithItsReplacementNamed() {
        ConfigException e = assertThrows(ConfigException.class, () -> Settings.from(Map.of("SAM3_DTYPE", "bf16")));
        assertTrue(e.getMessage().contains("SAM3_PRECISION"), e.getMessage());
        assertEquals("auto", Settings.from(Map.of("SAM3_DTYPE", " ")).get(Knob.SAM3_PRECISION));
    }

    @Test
    void durationsAreReadInShortOrIsoFormWithinOneSecondToAYear() {
        Settings s = Settings.from(Map.of());
        assertEquals(Duration.ofHours(24), s.getDuration(Knob.SAM3_JOB_RETENTION));
        assertEquals(Duration.ofSeconds(90), s.with(Knob.SAM3_JOB_RETENTION, "90s").getDuration(Knob.SAM3_JOB_RETENTION));
        assertEquals(Duration.ofDays(7), s.with(Knob.SAM3_JOB_RETENTION, "7D").getDuration(Knob.SAM3_JOB_RETENTION));
        assertEquals(Duration.ofMinutes(30),
                s.with(Knob.SAM3_JOB_RETENTION, "PT30M").getDuration(Knob.SAM3_JOB_RETENTION));
        assertEquals(Duration.ofDays(365), s.with(Knob.SAM3_JOB_RETENTION, "365d").getDuration(Knob.SAM3_JOB_RETENTION));
        for (String bad : List.of("24", "h", "-1h", "1.5h", "999ms", "366d", "P1000000000000D", "99999999999999d")) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> s.with(Knob.SAM3_JOB_RETENTION, bad).getDuration(Knob.SAM3_JOB_RETENTION), bad);
            assertTrue(e.getMessage().startsWith("SAM3_JOB_RETENTION=" + bad), e.getMessage());
        }
    }

    @Test
    void anEndpointIsAnHttpUrlWithAHostOrNothing() {
        Settings s = Settings.from(Map.of());
        Knob k = Knob.OTEL_EXPORTER_OTLP_ENDPOINT;
        assertEquals(Optional.empty(), s.getHttpUrl(k));
        assertEquals(Optional.of(URI.create("http://collector:4318")), s.with(k, " http://collector:4318 ").getHttpUrl(k));
        assertEquals(Optional.of(URI.create("HTTPS://c.example/otlp")), s.with(k, "HTTPS://c.example/otlp").getHttpUrl(k));
        for (String bad : List.of("collector:4318", "ftp://c:21", "http://", "http://a b", "file:///tmp/x")) {
            ConfigException e = assertThrows(ConfigException.class, () -> s.with(k, bad).getHttpUrl(k), bad);
            assertTrue(e.getMessage().startsWith(k + "=" + bad), e.getMessage());
        }
    }
}
