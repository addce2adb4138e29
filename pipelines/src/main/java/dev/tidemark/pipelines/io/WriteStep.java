package dev.tidemark.pipelines.io;

import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * A write that is one step: a {@link DoFn} that makes each element's line and writes it. Making the
 * line in the step that writes it, rather than in a step before, spares the runner a step per
 * element: on Flink each step is an operator of its own, with its bundle and its metrics.
 */
final class WriteStep {

  private WriteStep() {}

  /**
   * The write that applies {@code write} as a step named {@code stepName} (not {@code name}: inside
   * a {@link PTransform} that would be the transform's own field).
   */
  static <T> PTransform<PCollection<T>, PDone> of(String stepName, DoFn<T, Void> write) {
    return new PTransform<PCollection<T>, PDone>() {
      @Override
      public PDone expand(PCollection<T> elements) {
        elements.apply(stepName, ParDo.of(write));
        return PDone.in(elements.getPipeline());
      }
    };
  }
}
