package io.sam3stream.facade.predict;

import io.sam3stream.facade.http.ApiException;
import io.sam3stream.imageheader.ImageHeader;
import io.sam3stream.imageheader.MalformedImageException;
import java.util.Base64;

/**
 * The facade's cheap image check: the base64 decodes, the bytes start like a PNG or JPEG, and the size the header
 * declares is within the limits. No pixel is decoded here; the worker decodes (and checks again).
 */
final class ImageCheck {

    private ImageCheck() {
    }

    /** The image bytes of the base64 text, or 400 naming what is wrong. */
    static byte[] decode(String base64, RequestLimits limits) {
        return check(decodeBase64(base64), limits);
    }

    /** The image bytes if they start like a PNG or JPEG within the limits, or 400 naming what is wrong. */
    static byte[] check(byte[] image, RequestLimits limits) {
        ImageHeader header;
        try {
            header = ImageHeader.read(image);
        } catch (MalformedImageException e) {
            throw ApiException.badRequest("image: " + e.getMessage());
        }
        if (header.width() > limits.maxSide() || header.height() > limits.maxSide()) {
            throw ApiException.badRequest("image: " + header.width() + "x" + header.height()
                    + " has a side over SAM3_MAX_SIDE=" + limits.maxSide());
        }
        if (header.pixels() > limits.maxPixels()) {
            throw ApiException.badRequest("image: " + header.width() + "x" + header.height() + " has more than "
                    + "SAM3_MAX_PIXELS=" + limits.maxPixels() + " pixels");
        }
        return image;
    }

    /** Base64 wrapped at 76 columns (MIME, {@code base64} without -w0) is common; line breaks carry no data. */
    private static byte[] decodeBase64(String text) {
        try {
            return Base64.getDecoder().decode(withoutWhitespace(text));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("image: not valid base64 (" + e.getMessage() + ")");
        }
    }

    private static String withoutWhitespace(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (isWhitespace(text.charAt(i))) {
                StringBuilder sb = new StringBuilder(text.length());
                for (int j = 0; j < text.length(); j++) {
                    char c = text.charAt(j);
                    if (!isWhitespace(c)) {
                        sb.append(c);
                    }
                }
                return sb.toString();
            }
        }
        return text;
    }

    private static boolean isWhitespace(char c) {
        return c == '\n' || c == '\r' || c == ' ' || c == '\t';
    }
}
