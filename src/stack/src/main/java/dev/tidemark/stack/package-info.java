/**
 * A Kafka broker and a Flink session cluster on loopback, from Maven artifacts: {@link
 * dev.tidemark.stack.Stack} starts and stops them for users ({@code src/stack/stack}) and the
 * tests; {@link dev.tidemark.stack.KafkaNode} and {@link dev.tidemark.stack.FlinkNodes} hold their
 * configurations.
 */
package dev.tidemark.stack;
