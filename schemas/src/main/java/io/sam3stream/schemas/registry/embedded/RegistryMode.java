package io.sam3stream.schemas.registry.embedded;

/** Confluent's registry modes, set for the whole registry or for one subject. */
enum RegistryMode {
    /** Registrations and deletes are allowed, ids are assigned by the registry. */
    READWRITE,
    /** Registrations and deletes are refused with 42205; reads work. */
    READONLY,
    /**
     * Registrations may name the id (and the version) a schema had elsewhere, and skip the compatibility check,
     * so that a registry's content can be copied into this one with its ids intact.
     */
    IMPORT
}
