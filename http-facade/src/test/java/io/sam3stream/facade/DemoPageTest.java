package io.sam3stream.facade;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.TestStack;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The demo page and its samples are served from the jar, without a token even when the API needs one. */
@ExtendWith(TestStack.class)
class DemoPageTest {

    @Test
    void thePageAndItsSamplesNeedNoTokenWhileTheApiDoes() throws Exception {
        try (FacadeHarness facade = FacadeHarness.start(Map.of(
                "SAM3_WORKERS_TOPIC", TestStack.uniqueTopic("workers"),
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                "SAM3_API_KEYS", "secret"))) {
            // no token on any of these requests
            java.util.function.Function<String, HttpResponse<String>> get = path -> FacadeHarness.sendRaw(
                    HttpRequest.newBuilder(facade.uri(path)).GET().build());
            HttpResponse<String> page = get.apply("/");
            assertEquals(200, page.statusCode());
            assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
            assertTrue(page.body().contains("/page/app.js") && page.body().contains("id=\"overlay\""));
            assertEquals(200, get.apply("/page/app.js").statusCode());
            assertEquals(200, get.apply("/page/style.css").statusCode());
            String samples = get.apply("/page/samples.json").body();
            for (String name : new String[] {"rocket.jpg", "chelsea.png", "coffee.png", "astronaut.png"}) {
                assertTrue(samples.contains("\"" + name + "\""), samples);
            }
            HttpResponse<byte[]> rocket = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(facade.uri("/page/samples/rocket.jpg")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals("image/jpeg", rocket.headers().firstValue("Content-Type").orElse(""));
            assertArrayEquals(Files.readAllBytes(Path.of("..", "media", "rocket.jpg")), rocket.body());
            assertEquals(401, get.apply("/page/samples/other.png").statusCode(), "only the packaged samples are open");
            assertEquals(401, get.apply("/info").statusCode(), "the API still needs the token");
            assertEquals(404, facade.get("/page/samples/other.png").statusCode(), "with the token: no such sample");
        }
    }
}
