package io.sam3stream.model.prompt;

import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.text.TextEncoding;
import org.junit.jupiter.api.Test;

class PromptSequenceTest {

    @Test
    void rejectsTextAndGeometryOfDifferentBatchSizes() {
        try (NDManager manager = NDManager.newBaseManager()) {
            TextEncoding text = new TextEncoding(manager.zeros(new Shape(2, 32, 8)),
                    manager.zeros(new Shape(2, 32), DataType.BOOLEAN));
            GeometryEncoding geometry = new GeometryEncoding(manager.zeros(new Shape(1, 1, 8)),
                    manager.zeros(new Shape(1, 1), DataType.BOOLEAN));
            assertThrows(IllegalArgumentException.class,
                    () -> PromptSequence.assemble(text, geometry, StageSink.NONE));
        }
    }
}
