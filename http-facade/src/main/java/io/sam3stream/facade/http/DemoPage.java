package io.sam3stream.facade.http;

import io.javalin.http.Context;
import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The demo page at {@code GET /}: plain HTML, CSS and JavaScript from the jar that call {@code /predict} from the
 * browser and draw the answer. The page and its sample images are served without a bearer token (they hold no data;
 * the page asks for the token and sends it with its API calls). Serving it touches no model: the facade only reads
 * class-path resources.
 */
public final class DemoPage {

    private static final String ROOT = "/io/sam3stream/facade/page/";

    /** The page's files: URL path → resource name and content type. */
    private static final Map<String, Asset> ASSETS = Map.of(
            "/", new Asset("index.html", "text/html; charset=utf-8"),
            "/page/app.js", new Asset("app.js", "text/javascript; charset=utf-8"),
            "/page/style.css", new Asset("style.css", "text/css; charset=utf-8"));

    /** The pictures of the repository's {@code media/} folder that may be packaged as samples. */
    static final List<String> SAMPLE_NAMES = List.of("rocket.jpg", "chelsea.png", "coffee.png", "astronaut.png");

    private static final String SAMPLE_LIST = "/page/samples.json";
    private static final String SAMPLE_PREFIX = "/page/samples/";

    private record Asset(String resource, String contentType) {}

    private final Map<String, byte[]> files = new LinkedHashMap<>();
    private final Map<String, byte[]> samples = new LinkedHashMap<>();

    /** Reads the page and the samples that this build packaged (an image built without {@code media/} has none). */
    public DemoPage() {
        ASSETS.forEach((path, asset) -> files.put(path, read(asset.resource())
                .orElseThrow(() -> new IllegalStateException("the demo page's " + asset.resource()
                        + " is missing from the class path"))));
        for (String name : SAMPLE_NAMES) {
            read("samples/" + name).ifPresent(bytes -> samples.put(name, bytes));
        }
    }

    /** The paths this page answers, which need no bearer token. */
    public Set<String> openPaths() {
        Set<String> paths = new TreeSet<>(ASSETS.keySet());
        paths.add(SAMPLE_LIST);
        samples.keySet().forEach(name -> paths.add(SAMPLE_PREFIX + name));
        return paths;
    }

    /** Adds the page's routes. */
    public void register(RoutesConfig routes) {
        ASSETS.forEach((path, asset) -> routes.get(path, ctx -> ctx.contentType(asset.contentType())
                .header("Cache-Control", "no-cache").result(files.get(path))));
        routes.get(SAMPLE_LIST, ctx -> ctx.json(List.copyOf(samples.keySet())));
        routes.get(SAMPLE_PREFIX + "{name}", this::sample);
    }

    private void sample(Context ctx) {
        String name = ctx.pathParam("name");
        byte[] bytes = samples.get(name);
        if (bytes == null) {
            throw ApiException.http(404, "not_found", "no sample image called " + name);
        }
        ctx.contentType(name.endsWith(".png") ? "image/png" : "image/jpeg").result(bytes);
    }

    private static Optional<byte[]> read(String resource) {
        try (InputStream in = DemoPage.class.getResourceAsStream(ROOT + resource)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
