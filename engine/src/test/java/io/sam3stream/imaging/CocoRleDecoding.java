package io.sam3stream.imaging;

/** Pixels of COCO RLE runs, decoded pixel by pixel as pycocotools' rleDecode does, to check encodings in tests. */
final class CocoRleDecoding {

    private CocoRleDecoding() {}

    /** Row-major 0/1 pixels of the runs, which are column-major and start with 0s. */
    static byte[] toPixels(int[] counts, int height, int width) {
        byte[] pixels = new byte[height * width];
        int position = 0; // column-major index
        byte value = 0;
        for (int count : counts) {
            for (int k = 0; k < count; k++, position++) {
                int y = position % height;
                int x = position / height;
                pixels[y * width + x] = value;
            }
            value ^= 1;
        }
        return pixels;
    }
}
