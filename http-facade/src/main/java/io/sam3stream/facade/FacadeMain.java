package io.sam3stream.facade;

import io.sam3stream.config.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the HTTP facade until the process is told to stop: {@code java -jar sam3-http-facade.jar}, configured by
 * the environment (see the README's configuration table).
 */
public final class FacadeMain {

    private static final Logger LOG = LoggerFactory.getLogger(FacadeMain.class);

    /** Interface the server binds to: every one, as a container port mapping expects. */
    private static final String ALL_INTERFACES = "0.0.0.0";

    private FacadeMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Settings settings = Settings.fromEnvironment();
        settings.ignoredVariables().forEach(LOG::warn);
        FacadeServer server = new FacadeServer(FacadeConfig.from(settings, ALL_INTERFACES));
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "sam3-facade-shutdown"));
        server.start();
    }
}
