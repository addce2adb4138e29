/**
 * How the command line runs a built pipeline: what the run needs outside itself, checked or made
 * before it starts ({@link dev.tidemark.pipelines.runner.RunPreparation}: brokers, topics, the
 * cluster, an embedded run's loopback-only directory), and the run itself to its end, its stop on a
 * signal and its summary line ({@link dev.tidemark.pipelines.runner.PipelineRun}). Depends on the
 * options of {@code config}, the addresses of {@code io}, Beam, Flink and Kafka's clients; only
 * {@code cli} depends on it.
 */
package dev.tidemark.pipelines.runner;
