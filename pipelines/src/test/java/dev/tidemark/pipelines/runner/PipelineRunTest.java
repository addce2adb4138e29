package dev.tidemark.pipelines.runner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How a DirectRunner run ends when a signal stops it. Beam's DirectRunner, cancelled while it
 * delivers timers, can fail the run with the {@link RejectedExecutionException} of its own executor
 * shutting down (seen once in CI, on {@code SocketEndAndSignalIT}); {@link CancelledRunFails} does
 * exactly that, every time, so the race is not needed to test what tidemark makes of it.
 */
class PipelineRunTest {

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final PipelineRun run =
      new PipelineRun(
          PipelineOptionsFactory.as(TidemarkOptions.class),
          new PrintStream(err, true, StandardCharsets.UTF_8));

  @Test
  void aRunThatFailsBecauseTheStopCancelledItEndsAsStopped() throws Exception {
    CancelledRunFails result = new CancelledRunFails(metricsOfARealRun());
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(() -> run.untilTheDirectRunnerEnds(result));
    // What the shutdown hook does on SIGTERM.
    run.stopOnTheDirectRunner(result);
    assertThat(exit.get(30, TimeUnit.SECONDS), equalTo(PipelineRun.STOPPED));
    assertThat(
        err.toString(StandardCharsets.UTF_8),
        equalTo(
            "tidemark: 0 records in, 0 results out, 0 late, 0 dead letters"
                + " (stopped by a signal: counts up to the stop)"
                + System.lineSeparator()));
  }

  @Test
  void aRunThatFailsWithoutAStopStillFails() {
    CancelledRunFails result = new CancelledRunFails(metricsOfARealRun());
    result.cancel();
    assertThrows(RejectedExecutionException.class, () -> run.untilTheDirectRunnerEnds(result));
    assertThat(err.toString(StandardCharsets.UTF_8), equalTo(""));
  }

  private static MetricResults metricsOfARealRun() {
    Pipeline pipeline = Pipeline.create();
    pipeline.getOptions().setRunner(DirectRunner.class);
    pipeline.apply(Create.of(1));
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    return result.metrics();
  }

  /** A run that, once cancelled, fails as Beam's DirectRunner did in CI. */
  private static final class CancelledRunFails implements PipelineResult {
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final MetricResults metrics;

    CancelledRunFails(MetricResults metrics) {
      this.metrics = metrics;
    }

    @Override
    public State getState() {
      return cancelled.getCount() == 0 ? State.FAILED : State.RUNNING;
    }

    @Override
    public State cancel() {
      cancelled.countDown();
      return State.FAILED;
    }

    @Override
    public State waitUntilFinish(Duration duration) {
      return waitUntilFinish();
    }

    @Override
    public State waitUntilFinish() {
      try {
        cancelled.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new RejectedExecutionException(
          "Task rejected from java.util.concurrent.ThreadPoolExecutor[Shutting down]");
    }

    @Override
    public MetricResults metrics() {
      return metrics;
    }
  }
}
