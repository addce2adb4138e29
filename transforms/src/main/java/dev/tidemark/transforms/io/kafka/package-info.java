/**
 * KafkaIO's side of the watermark rules: a {@code TimestampPolicyFactory} whose partitions neither
 * overflow nor stall when empty or idle, and KafkaIO's records read in batches ({@code
 * ReadKafkaInBatches}). The only package that needs {@code kafka-clients}, an optional dependency:
 * add KafkaIO to use it.
 */
package dev.tidemark.transforms.io.kafka;
