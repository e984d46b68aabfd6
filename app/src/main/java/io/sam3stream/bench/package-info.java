/**
 * End-to-end measurements behind {@code sam3 bench} and {@code docs/PERFORMANCE.md}: the full-size forward with a
 * same-process control, extra prompts on a cached image, peak memory, the imaging steps of a request and the
 * pipeline's throughput. Each figure is printed beside its reference (upstream's anchor, or the control measured in
 * the same run) as a ratio.
 */
package io.sam3stream.bench;
