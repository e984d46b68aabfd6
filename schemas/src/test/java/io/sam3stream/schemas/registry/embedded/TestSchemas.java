package io.sam3stream.schemas.registry.embedded;

import org.apache.avro.Schema;

/** Small record schemas for registry tests, written out so each test shows exactly what it registers. */
final class TestSchemas {

    private TestSchemas() {
    }

    /** {@code Thing {a: int}}. */
    static final Schema A_INT = parse(
            "{\"type\":\"record\",\"name\":\"Thing\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}");

    /** {@code Thing {a: int, b: string = ""}}: BACKWARD compatible with {@link #A_INT}. */
    static final Schema A_INT_B_DEFAULTED = parse("{\"type\":\"record\",\"name\":\"Thing\",\"fields\":["
            + "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\",\"default\":\"\"}]}");

    /** {@code Thing {a: int, b: string = "x"}}: differs from {@link #A_INT_B_DEFAULTED} only by the default. */
    static final Schema A_INT_B_OTHER_DEFAULT = parse("{\"type\":\"record\",\"name\":\"Thing\",\"fields\":["
            + "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"}]}");

    /** {@code Thing {a: int, b: string}}: not BACKWARD compatible with {@link #A_INT} (b has no default). */
    static final Schema A_INT_B_REQUIRED = parse("{\"type\":\"record\",\"name\":\"Thing\",\"fields\":["
            + "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"}]}");

    /** {@code Thing {}}: a reader of it skips everything, so it is BACKWARD compatible with anything. */
    static final Schema EMPTY = parse("{\"type\":\"record\",\"name\":\"Thing\",\"fields\":[]}");

    /** {@code Thing {a: string = "?"}}: reads {@link #EMPTY} data, but not {@link #A_INT} data. */
    static final Schema A_STRING_DEFAULTED = parse("{\"type\":\"record\",\"name\":\"Thing\",\"fields\":["
            + "{\"name\":\"a\",\"type\":\"string\",\"default\":\"?\"}]}");

    private static Schema parse(String json) {
        return new Schema.Parser().parse(json);
    }
}
