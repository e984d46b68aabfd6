/**
 * {@code sam3 label}: a folder of images to COCO annotations. Each image goes through a {@link
 * io.sam3stream.label.Labeller} (the engine in this process, a facade over HTTP, or the request topic so that every
 * worker of the group shares the run), its answer is appended to a results log beside the output as it arrives, and
 * the COCO file is written from that log at the end. The log is also the run's state: a run started again with the
 * same output skips every image it already holds, so an interrupted run resumes without labelling an image twice.
 */
package io.sam3stream.label;
