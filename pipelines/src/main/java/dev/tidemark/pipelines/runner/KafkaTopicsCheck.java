package dev.tidemark.pipelines.runner;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A check of a run's Kafka topics ({@link RunPreparation#requireKafkaTopics}) running on a thread
 * of its own; {@link #await} waits for it and throws what it threw, so that the caller reports a
 * missing broker or topic exactly as if it had checked on its own thread.
 */
public final class KafkaTopicsCheck {

  private final CompletableFuture<Void> done;

  private KafkaTopicsCheck(CompletableFuture<Void> done) {
    this.done = done;
  }

  static KafkaTopicsCheck start(Runnable check) {
    return new KafkaTopicsCheck(
        CompletableFuture.runAsync(
            check, task -> PipelineRun.daemon(task, "tidemark-kafka-topics-check")));
  }

  /**
   * Waits for the check to end.
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException as the check threw it
   */
  public void await() {
    try {
      done.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      if (e.getCause() instanceof Error) {
        throw (Error) e.getCause();
      }
      throw e;
    }
  }
}
