/**
 * The side-by-side benchmark ({@link dev.tidemark.benchmarks.Benchmark}) and JMH microbenchmarks of
 * the per-record hot paths. Depends on everything; nothing depends on it, and the test suite never
 * runs it.
 */
package dev.tidemark.benchmarks;
