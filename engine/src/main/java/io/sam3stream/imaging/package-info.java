/**
 * Everything between encoded bytes and tensors, on both ends of a segmentation request, in plain Java (no DJL, no
 * engine types): this package must not import {@code io.sam3stream.model} or {@code io.sam3stream.engine}.
 *
 * <ul>
 *   <li>Input: {@link io.sam3stream.imaging.ImageDecoder} turns PNG/JPEG bytes into the {@link
 *       io.sam3stream.imaging.RgbImage} that {@code PIL.Image.open(f).convert("RGB")} gives upstream, refusing bad
 *       or oversized input ({@link io.sam3stream.imaging.ImageLimits}) with an {@link
 *       io.sam3stream.imaging.ImageRejectedException} before allocating pixels; {@link
 *       io.sam3stream.imaging.ModelInputPreprocessor} makes the model's float32 input exactly as
 *       {@code Sam3Processor.transform} does (docs/MODEL.md §2).</li>
 *   <li>Output: {@link io.sam3stream.imaging.MaskUpsampler} brings mask logits to the image size and binarises
 *       them (docs/MODEL.md §11.3); {@link io.sam3stream.imaging.PngEncoder} and {@link io.sam3stream.imaging.CocoRle}
 *       encode the {@link io.sam3stream.imaging.BinaryMask}s for the response; {@link
 *       io.sam3stream.imaging.OverlayRenderer} draws results for people.</li>
 * </ul>
 */
package io.sam3stream.imaging;
