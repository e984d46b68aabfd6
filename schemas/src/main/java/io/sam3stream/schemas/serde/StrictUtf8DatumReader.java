package io.sam3stream.schemas.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.io.Decoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.util.Utf8;

/**
 * A {@link SpecificDatumReader} that refuses strings which are not valid UTF-8. Avro's own decoding replaces every
 * malformed sequence with U+FFFD without a word, so a record whose prompt holds broken bytes would be served as a
 * different prompt than its producer wrote; the Avro specification makes a string UTF-8, so such a record is
 * malformed and is refused like any other.
 *
 * <p>Avro's fast reader builds its own string readers and never calls {@link #readString}, so this reader runs on
 * a copy of the class's model (same conversions) with the fast reader off.
 *
 * @param <T> the generated class
 */
final class StrictUtf8DatumReader<T> extends SpecificDatumReader<T> {

    StrictUtf8DatumReader(Schema writer, Schema reader, SpecificData model) {
        super(writer, reader, withoutFastReader(model));
    }

    private static SpecificData withoutFastReader(SpecificData model) {
        SpecificData copy = new SpecificData(model.getClassLoader());
        model.getConversions().forEach(copy::addLogicalTypeConversion);
        copy.setFastReaderEnabled(false);
        return copy;
    }

    @Override
    protected Object readString(Object old, Schema expected, Decoder in) throws IOException {
        Utf8 raw = in.readString(null);
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw.getBytes(), 0, raw.getByteLength()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new AvroTypeException("a string of " + raw.getByteLength() + " bytes is not valid UTF-8");
        }
        Class<?> stringClass = findStringClass(expected);
        return stringClass == String.class || stringClass == CharSequence.class ? text
                : newInstanceFromString(stringClass, text);
    }
}
