/**
 * Sources: a socket ({@link dev.tidemark.transforms.io.ReadSocketLines}) and recordings replayed
 * deterministically ({@link dev.tidemark.transforms.io.ReplaySource} over files or a generator),
 * and any unbounded source read in batches with a watermark bound ({@link
 * dev.tidemark.transforms.io.BatchingUnboundedSource}, giving {@code model.SourceBatch}es). Each
 * applies the rules of {@code watermark}; Kafka's policy and batched read are in {@code io.kafka}.
 */
package dev.tidemark.transforms.io;
