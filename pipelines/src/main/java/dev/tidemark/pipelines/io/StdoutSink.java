package dev.tidemark.pipelines.io;

import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * {@code stdout}: each line printed by the worker that holds it. On the DirectRunner and embedded
 * Flink that is this process; on a Flink cluster it is a TaskManager's stdout.
 */
final class StdoutSink implements Sink {

  private static final long serialVersionUID = 1L;

  @Override
  public <T> PTransform<PCollection<T>, PDone> write(String output, Lines<T> lines) {
    return WriteStep.of("PrintLines", new PrintLineFn<>(lines));
  }

  @Override
  public String toString() {
    return "stdout";
  }

  private static final class PrintLineFn<T> extends DoFn<T, Void> {
    private final Lines<T> lines;

    PrintLineFn(Lines<T> lines) {
      this.lines = lines;
    }

    @ProcessElement
    public void processElement(@Element T element) {
      System.out.println(lines.text().apply(element));
    }
  }
}
