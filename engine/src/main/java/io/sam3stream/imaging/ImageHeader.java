package io.sam3stream.imaging;

/**
 * What an encoded image declares about itself before its pixels are decoded.
 *
 * @param format PNG or JPEG
 * @param width  declared width in pixels (PNG allows up to 2³¹−1, JPEG up to 65535)
 * @param height declared height in pixels (0 for a JPEG whose height comes later in a DNL marker)
 */
public record ImageHeader(ImageFormat format, long width, long height) {}
