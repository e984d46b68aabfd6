package io.sam3stream.engine;

import java.util.Locale;

/** How instance masks are returned: the reference server's {@code png}, {@code rle}, {@code none}, plus ours. */
public enum MaskFormat {
    /** 8-bit grayscale 0/255 PNG at the original H×W. */
    PNG,
    /** COCO uncompressed RLE: {@code {size:[H,W], counts:[...]}}, column-major, starting with a run of zeros. */
    RLE,
    /** COCO compressed RLE: the string form pycocotools writes. */
    RLE_COMPRESSED,
    /** Boxes and scores only. */
    NONE;

    /** The wire name ({@code png}, {@code rle}, {@code rle_compressed}, {@code none}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name; unknown names are a 422 in the HTTP API. */
    public static MaskFormat fromWireName(String name) {
        for (MaskFormat f : values()) {
            if (f.wireName().equals(name)) {
                return f;
            }
        }
        throw new RequestRejectedException(ErrorCode.UNPROCESSABLE_ENTITY,
                "mask_format must be one of png, rle, rle_compressed, none; got '" + name + "'");
    }
}
