package io.sam3stream.label;

import java.nio.file.Path;

/**
 * One image of the dataset.
 *
 * @param path     where it is read from
 * @param fileName its name in the COCO file: the path relative to the dataset folder, with {@code /} separators
 */
public record DatasetImage(Path path, String fileName) {}
