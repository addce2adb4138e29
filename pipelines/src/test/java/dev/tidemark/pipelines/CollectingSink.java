package dev.tidemark.pipelines;

import dev.tidemark.pipelines.io.Lines;
import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.transforms.testing.Collected;
import java.util.List;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptors;

/** A sink whose lines the test reads back in this JVM (DirectRunner, embedded Flink). */
final class CollectingSink implements Sink {

  private static final long serialVersionUID = 1L;

  private final transient Collected collected = new Collected();

  @Override
  public <T> PTransform<PCollection<T>, PDone> write(String output, Lines<T> lines) {
    PTransform<PCollection<String>, PDone> collect = collected.sink();
    return new PTransform<PCollection<T>, PDone>() {
      @Override
      public PDone expand(PCollection<T> elements) {
        return elements
            .apply("Lines", MapElements.into(TypeDescriptors.strings()).via(lines.text()))
            .apply("Collect", collect);
      }
    };
  }

  /** The lines written so far. */
  List<String> lines() {
    return collected.snapshot();
  }
}
