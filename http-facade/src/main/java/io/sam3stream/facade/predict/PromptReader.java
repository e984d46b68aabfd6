package io.sam3stream.facade.predict;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.avro.Box;
import io.sam3stream.avro.BoxLabel;
import io.sam3stream.avro.ExemplarBox;
import io.sam3stream.avro.Prompt;
import io.sam3stream.facade.http.ApiException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the {@code prompts} array. An item is either the reference server's plain noun phrase, or (an extension)
 * an object {@code {"text": "...", "boxes": [{"box_xyxy": [x0, y0, x1, y1], "positive": true}]}} that adds visual
 * exemplars. Shape and type errors are 422; whether the texts are usable (not blank) is checked later, as 400.
 */
final class PromptReader {

    private PromptReader() {
    }

    static List<Prompt> read(JsonNode array, String path) {
        List<Prompt> prompts = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            prompts.add(prompt(array.get(i), path + "[" + i + "]"));
        }
        return prompts;
    }

    private static Prompt prompt(JsonNode item, String path) {
        if (item.isTextual()) {
            return Prompt.newBuilder().setText(item.textValue()).setBoxes(List.of()).build();
        }
        if (!item.isObject()) {
            throw JsonFields.wrongType(path, "a string or an object with text and boxes", item);
        }
        JsonFields fields = JsonFields.of(item, path);
        String text = fields.requiredString("text");
        JsonNode boxes = fields.optional("boxes");
        if (boxes == null) {
            return Prompt.newBuilder().setText(text).setBoxes(List.of()).build();
        }
        String boxesPath = fields.pathOf("boxes");
        if (!boxes.isArray()) {
            throw JsonFields.wrongType(boxesPath, "an array", boxes);
        }
        List<ExemplarBox> exemplars = new ArrayList<>(boxes.size());
        for (int i = 0; i < boxes.size(); i++) {
            exemplars.add(exemplar(boxes.get(i), boxesPath + "[" + i + "]"));
        }
        return Prompt.newBuilder().setText(text).setBoxes(exemplars).build();
    }

    private static ExemplarBox exemplar(JsonNode node, String path) {
        JsonFields fields = JsonFields.of(node, path);
        Box box = box(fields.requiredArray("box_xyxy"), fields.pathOf("box_xyxy"));
        BoxLabel label = fields.bool("positive", true) ? BoxLabel.positive : BoxLabel.negative;
        return ExemplarBox.newBuilder().setBoxXyxy(box).setLabel(label).build();
    }

    private static Box box(JsonNode xyxy, String path) {
        if (xyxy.size() != 4) {
            throw ApiException.unprocessable(path + ": must be [x0, y0, x1, y1], got " + xyxy.size() + " values");
        }
        float[] v = new float[4];
        for (int i = 0; i < 4; i++) {
            JsonNode c = xyxy.get(i);
            if (!c.isNumber() || !Float.isFinite(c.floatValue())) {
                throw JsonFields.wrongType(path + "[" + i + "]", "a finite number", c);
            }
            v[i] = c.floatValue();
        }
        if (!(v[2] > v[0] && v[3] > v[1])) {
            throw ApiException.unprocessable(path + ": needs x1 > x0 and y1 > y0, got " + xyxy);
        }
        return new Box(v[0], v[1], v[2], v[3]);
    }
}
