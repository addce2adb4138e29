package dev.tidemark.transforms.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;

/**
 * Runs a pipeline on a background thread, so that a test can feed its source and watch its results
 * while it runs, and then wait for it to end.
 */
public final class InBackground implements AutoCloseable {

  private final ExecutorService executor =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread thread = new Thread(r, "pipeline-under-test");
            thread.setDaemon(true);
            return thread;
          });
  private final CompletableFuture<PipelineResult.State> finished;

  private InBackground(Pipeline pipeline) {
    finished = CompletableFuture.supplyAsync(() -> pipeline.run().waitUntilFinish(), executor);
  }

  public static InBackground run(Pipeline pipeline) {
    return new InBackground(pipeline);
  }

  /** Whether the pipeline has ended, successfully or not. */
  public boolean isDone() {
    return finished.isDone();
  }

  /** Waits for the pipeline to end and returns its final state; rethrows its failure. */
  public PipelineResult.State await(long timeout, TimeUnit unit) throws Exception {
    return finished.get(timeout, unit);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
