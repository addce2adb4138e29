package dev.tidemark.pipelines.io;

import java.io.Serializable;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * Where a pipeline's lines go: one class per scheme of {@link SinkUri} ({@link StdoutSink}, {@link
 * FileSink}, {@link KafkaSink}), or, in a test, a collecting sink. A pipeline is built from sink
 * values and never parses a URI itself.
 */
public interface Sink extends Serializable {

  /** Writes every line to this sink. */
  PTransform<PCollection<String>, PDone> write();

  /**
   * Writes every line with its record key (null: none): a Kafka sink writes the key with the line,
   * so a compacted topic keeps the latest line of each key; the other sinks write the line. {@code
   * output} names this write among the job's writes ({@code results}, {@code late}, ...): an
   * exactly-once Kafka sink names its transactions after it.
   */
  default PTransform<PCollection<KV<String, String>>, PDone> writeKeyed(String output) {
    return new PTransform<PCollection<KV<String, String>>, PDone>() {
      @Override
      public PDone expand(PCollection<KV<String, String>> keyed) {
        return keyed.apply("Lines", Values.create()).apply("Write", write());
      }
    };
  }
}
