package dev.tidemark.pipelines.io;

import java.io.Serializable;
import org.apache.beam.sdk.transforms.PTransform;
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
}
