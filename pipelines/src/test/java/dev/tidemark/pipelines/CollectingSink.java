package dev.tidemark.pipelines;

import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.transforms.testing.Collected;
import java.util.List;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/** A sink whose lines the test reads back in this JVM (DirectRunner, embedded Flink). */
final class CollectingSink implements Sink {

  private static final long serialVersionUID = 1L;

  private final transient Collected collected = new Collected();

  @Override
  public PTransform<PCollection<String>, PDone> write() {
    return collected.sink();
  }

  /** The lines written so far. */
  List<String> lines() {
    return collected.snapshot();
  }
}
