/**
 * KafkaIO's side of the watermark rules: a {@code TimestampPolicyFactory} whose partitions neither
 * overflow nor stall when empty or idle, KafkaIO's records read in batches ({@code
 * ReadKafkaInBatches}), and records written exactly once in Kafka transactions ({@code
 * WriteKafkaInTransactions}). The only package that needs {@code kafka-clients}, an optional
 * dependency: add KafkaIO to use it.
 */
package dev.tidemark.transforms.io.kafka;
