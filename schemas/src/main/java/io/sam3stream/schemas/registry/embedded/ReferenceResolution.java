package io.sam3stream.schemas.registry.embedded;

import io.sam3stream.schemas.registry.SchemaReference;
import io.sam3stream.schemas.registry.SchemaText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.Schema;

/**
 * Parses a schema whose text names types through references: each referenced version (and what it references
 * in turn) is parsed first into the same parser, so the names resolve, as Confluent's registry does for Avro.
 */
final class ReferenceResolution {

    /**
     * A parsed schema.
     *
     * @param schema the whole schema, referenced types inlined, for compatibility checks and readers
     * @param normalized the text it is stored and compared as: Avro's own printing, referenced types named
     */
    record Parsed(Schema schema, SchemaText normalized) {
    }

    private ReferenceResolution() {
    }

    /**
     * Parses {@code text}, fetching each referenced version through {@code versions}.
     *
     * @throws RegistryApiException 42201 when the text or a referenced version does not parse, or a reference
     *     names no version that {@code versions} knows
     */
    // Schema.toString(Collection, boolean) is deprecated in Avro 1.12, and nothing replaces it: it is the one printer
    // that writes the types of the given references by name instead of inlining them.
    @SuppressWarnings("deprecation")
    static Parsed parse(SchemaText text, Function<SchemaReference, SchemaText> versions) {
        if (text.schema() == null || text.schema().isBlank()) {
            throw RegistryApiException.invalidSchema("empty schema");
        }
        Schema.Parser parser = new Schema.Parser();
        try {
            Set<SchemaReference> loading = new HashSet<>();
            for (SchemaReference reference : text.references()) {
                load(parser, reference, versions, loading);
            }
            // every type the references brought, nested ones included, is printed by name
            List<Schema> referenced = new ArrayList<>(parser.getTypes().values());
            Schema schema = parser.parse(text.schema());
            return new Parsed(schema, new SchemaText(schema.toString(referenced, false), text.references()));
        } catch (RegistryApiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw RegistryApiException.invalidSchema(e.getMessage());
        }
    }

    private static void load(Schema.Parser parser, SchemaReference reference,
            Function<SchemaReference, SchemaText> versions, Set<SchemaReference> loading) {
        if (parser.getTypes().containsKey(reference.name()) || !loading.add(reference)) {
            return; // already there through another reference
        }
        SchemaText target = versions.apply(reference);
        if (target == null) {
            throw RegistryApiException.invalidSchema("reference " + reference.name() + " names version "
                    + reference.version() + " of subject '" + reference.subject() + "', which does not exist");
        }
        for (SchemaReference nested : target.references()) {
            load(parser, nested, versions, loading);
        }
        parser.parse(target.schema());
        if (!parser.getTypes().containsKey(reference.name())) {
            throw RegistryApiException.invalidSchema("version " + reference.version() + " of subject '"
                    + reference.subject() + "' does not define " + reference.name());
        }
    }
}
