package dev.tidemark.pipelines.io;

import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * {@code stdout}: each line printed by the worker that holds it. On the DirectRunner and embedded
 * Flink that is this process; on a Flink cluster it is a TaskManager's stdout.
 */
final class StdoutSink implements Sink {

  private static final long serialVersionUID = 1L;

  @Override
  public PTransform<PCollection<String>, PDone> write() {
    return new PTransform<PCollection<String>, PDone>() {
      @Override
      public PDone expand(PCollection<String> lines) {
        lines.apply("PrintLines", ParDo.of(new PrintLineFn()));
        return PDone.in(lines.getPipeline());
      }
    };
  }

  @Override
  public String toString() {
    return "stdout";
  }

  private static final class PrintLineFn extends DoFn<String, Void> {
    @ProcessElement
    public void processElement(@Element String line) {
      System.out.println(line);
    }
  }
}
