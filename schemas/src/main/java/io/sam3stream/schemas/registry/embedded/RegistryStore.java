package io.sam3stream.schemas.registry.embedded;

import java.io.IOException;

/** Where the registry's state survives restarts. Every change is saved before it is acknowledged. */
interface RegistryStore extends AutoCloseable {

    /** The saved state, or an empty registry's when nothing was saved yet. */
    RegistrySnapshot load() throws IOException;

    /** Saves the whole state; returns only once it is durable. */
    void save(RegistrySnapshot snapshot) throws IOException;

    /** A description for logs and errors. */
    String describe();

    @Override
    void close();
}
