package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.model.DeadLetter;
import java.io.Serializable;
import java.util.Optional;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * Where a pipeline's lines go: one class per scheme of {@link SinkUri} ({@link StdoutSink}, {@link
 * FileSink}, {@link KafkaSink}, {@link dev.tidemark.pipelines.io.jdbc.TableSink}), or, in a test, a
 * collecting sink. A pipeline is built from sink values and never parses a URI itself.
 */
public interface Sink extends Serializable {

  /**
   * Writes each element as the line {@code lines} makes of it. A Kafka sink writes the line with
   * its record key, so that a compacted topic keeps the latest line of each key; the other sinks
   * write the line alone and never make the key. {@code output} names this write among the job's
   * writes ({@code results}, {@code late}, ...): an exactly-once Kafka sink names its transactions
   * after it.
   */
  <T> PTransform<PCollection<T>, PDone> write(String output, Lines<T> lines);

  /**
   * Writes as {@link #write} does, and gives the elements that the sink's server refused, as dead
   * letters with its reason: a table's rows whose values a column does not take. Empty for a sink
   * whose server refuses no element, which every sink but a table is.
   */
  default <T> Optional<PTransform<PCollection<T>, PCollection<DeadLetter>>> writeRefusing(
      String output, Lines<T> lines) {
    return Optional.empty();
  }

  /**
   * Whether the sink waits for its server as each bundle ends: a Kafka sink flushes its records, or
   * commits its transaction, then. A run with such a sink bounds its bundles so that one wait
   * serves many rows ({@code config.RunnerSettings}); the other sinks write a bundle's rows at its
   * end and wait for no answer.
   */
  default boolean waitsForItsServerEachBundle() {
    return false;
  }
}
