/**
 * KafkaIO's side of the watermark rules: a {@code TimestampPolicyFactory} whose partitions neither
 * overflow nor stall when empty or idle, a {@code KafkaIO.Read}'s topics read in batches by
 * tidemark's own reader ({@code ReadKafkaInBatches}, {@code KafkaTopicSource}), and records written
 * exactly once in Kafka transactions ({@code WriteKafkaInTransactions}). The only package that
 * needs {@code kafka-clients}, an optional dependency: add KafkaIO to use it.
 */
package dev.tidemark.transforms.io.kafka;
