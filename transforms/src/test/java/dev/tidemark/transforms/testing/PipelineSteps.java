package dev.tidemark.transforms.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.runners.TransformHierarchy;

/** The steps of a built pipeline, by full name, for tests of what a transform expands into. */
public final class PipelineSteps {

  private PipelineSteps() {}

  /** The full name of every step of {@code pipeline}, composite or not, in topological order. */
  public static List<String> of(Pipeline pipeline) {
    List<String> steps = new ArrayList<>();
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            if (!node.isRootNode()) {
              steps.add(node.getFullName());
            }
            return CompositeBehavior.ENTER_TRANSFORM;
          }

          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            steps.add(node.getFullName());
          }
        });
    return steps;
  }
}
