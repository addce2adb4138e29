/**
 * Sources: a socket ({@link dev.tidemark.transforms.io.ReadSocketLines}) and recordings replayed
 * deterministically ({@link dev.tidemark.transforms.io.ReplaySource} over files or a generator).
 * Each applies the rules of {@code watermark}; Kafka's policy is in {@code io.kafka}.
 */
package dev.tidemark.transforms.io;
