package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.kafka.KafkaTestStack;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every class of the bad-input corpus ({@link BadInputCorpus}) sent to one running service (worker with the tiny
 * engine, facade, broker, registry): each gets its documented outcome, and a valid request right after it is
 * answered normally, so no bad input ever takes the worker or the facade down with it.
 */
@ExtendWith(KafkaTestStack.class)
class BadInputCorpusTest {

    private static final AtomicInteger IDS = new AtomicInteger();
    private static CorpusService service;

    @BeforeAll
    static void start() throws Exception {
        service = CorpusService.start();
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    static Stream<Arguments> corpus() {
        return BadInputCorpus.all().map(named -> Arguments.of(named.getName(), named.getPayload()));
    }

    @Test
    void theCorpusHasAtLeastFortyDistinctClasses() {
        assertTrue(BadInputCorpus.all().count() >= 40);
        assertEquals(BadInputCorpus.all().count(), BadInputCorpus.all().map(Named::getName).distinct().count(),
                "names are unique");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void eachBadInputGetsItsDocumentedOutcomeAndTheServiceKeepsServing(String name, BadInput input)
            throws Exception {
        try {
            input.sendAndCheck(service, "corpus-" + IDS.incrementAndGet());
        } catch (AssertionError e) {
            throw new AssertionError(name + ": " + e.getMessage(), e);
        }

        HttpCalls.Answer valid = service.http().predict(PredictBodies.valid("cat").toString());
        assertEquals(200, valid.status(), "a valid request after " + name + ": " + valid);
        JsonNode result = valid.json().get("results").get(0);
        assertEquals("cat", result.get("prompt").asText());
    }
}
