/**
 * Windows for live sources: the preset ({@link
 * dev.tidemark.transforms.windowing.EventTimeWindowing}), exact late-data capture ({@link
 * dev.tidemark.transforms.windowing.CaptureLateData}) and counting ({@link
 * dev.tidemark.transforms.windowing.CountPerWindow}). Recordings use {@code replay} instead.
 * Depends on {@code model}, {@code watermark} and {@code metrics}.
 */
package dev.tidemark.transforms.windowing;
