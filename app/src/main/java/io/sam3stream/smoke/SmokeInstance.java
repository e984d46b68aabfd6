package io.sam3stream.smoke;

import io.sam3stream.imaging.BinaryMask;

/**
 * One instance as the smoke test sees it, whichever way it was obtained (HTTP JSON or the in-process engine).
 *
 * @param score   instance score
 * @param boxXyxy box in original pixels
 * @param mask    the decoded binary mask at the original size
 */
public record SmokeInstance(float score, float[] boxXyxy, BinaryMask mask) {}
