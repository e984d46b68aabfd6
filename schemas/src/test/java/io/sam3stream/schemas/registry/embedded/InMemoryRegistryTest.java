package io.sam3stream.schemas.registry.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh in-memory registry on a loopback port for each test, and raw HTTP to it. */
abstract class InMemoryRegistryTest {

    EmbeddedSchemaRegistry registry;
    RegistryHttp http;

    @BeforeEach
    void startRegistry() throws IOException {
        registry = EmbeddedSchemaRegistry.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        http = new RegistryHttp(registry.url());
    }

    @AfterEach
    void stopRegistry() {
        registry.close();
    }

    /** {@code reply} is Confluent's error body with this HTTP status and error code. */
    static void assertError(int status, int errorCode, RegistryHttp.Reply reply) {
        assertEquals(status, reply.status(), reply.body().toString());
        assertEquals(errorCode, reply.errorCode(), reply.body().toString());
        assertTrue(reply.body().get("message").isTextual(), reply.body().toString());
    }
}
