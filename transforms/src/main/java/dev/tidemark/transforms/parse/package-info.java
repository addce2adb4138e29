/**
 * Text records into {@link dev.tidemark.transforms.model.Event}s ({@link
 * dev.tidemark.transforms.parse.ParseEvents} with a CSV or JSON {@link
 * dev.tidemark.transforms.parse.EventFormat}); whatever cannot be used becomes a dead letter with
 * the reason, one by one or a {@code SourceBatch} at a time. Depends on {@code model} and {@code
 * watermark}.
 */
package dev.tidemark.transforms.parse;
