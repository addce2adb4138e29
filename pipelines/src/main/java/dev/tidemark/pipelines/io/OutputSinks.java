package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.JdbcProperties;
import dev.tidemark.pipelines.config.KafkaClientProperties;
import dev.tidemark.pipelines.config.TidemarkOptions;
import java.util.Map;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.flink.streaming.api.CheckpointingMode;

/** The three places a pipeline writes to: results, late records, dead letters. */
public record OutputSinks(Sink results, Sink late, Sink deadLetters) {

  /**
   * The sinks of {@code --sink}, {@code --lateSink} and {@code --deadLetterSink}. Kafka sinks write
   * exactly once, in transactions, when the run can keep that promise: on Flink, checkpointing in
   * exactly-once mode. They then have a writer per {@code --parallelism} (one if it is not set).
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException naming the option that is wrong
   */
  public static OutputSinks from(TidemarkOptions options) {
    Map<String, String> kafka = KafkaClientProperties.from(options);
    Map<String, String> jdbc = JdbcProperties.from(options);
    int shards = writesExactlyOnce(options) ? writers(options.getParallelism()) : 0;
    OutputSinks sinks =
        new OutputSinks(
            SinkUri.parse("sink", options.getSink(), kafka, shards, jdbc),
            SinkUri.parse("lateSink", options.getLateSink(), kafka, shards, jdbc),
            SinkUri.parse("deadLetterSink", options.getDeadLetterSink(), kafka, shards, jdbc));
    sinks.requireOwnTables();
    return sinks;
  }

  /** Each output's rows have their own columns, so two outputs cannot share a table. */
  private void requireOwnTables() {
    String resultsTable = results.toString();
    if (resultsTable.startsWith("jdbc:")) {
      if (resultsTable.equals(late.toString())) {
        throw new ConfigurationException(
            "--lateSink: names the table of --sink; late records need a table of their own");
      }
      if (resultsTable.equals(deadLetters.toString())) {
        throw new ConfigurationException(
            "--deadLetterSink: names the table of --sink; dead letters need a table of their own");
      }
    }
    if (late.toString().startsWith("jdbc:") && late.toString().equals(deadLetters.toString())) {
      throw new ConfigurationException(
          "--deadLetterSink: names the table of --lateSink; dead letters need a table of their own");
    }
  }

  /** Whether any of the three waits for its server as each bundle ends (a Kafka sink). */
  public boolean anyWaitsForItsServerEachBundle() {
    return results.waitsForItsServerEachBundle()
        || late.waitsForItsServerEachBundle()
        || deadLetters.waitsForItsServerEachBundle();
  }

  /** Whether Kafka sinks write in transactions: Flink, checkpointing in exactly-once mode. */
  private static boolean writesExactlyOnce(TidemarkOptions options) {
    return options.getRunner() == FlinkRunner.class
        && options.getCheckpointingInterval() != null
        && options.getCheckpointingInterval() > 0
        && !CheckpointingMode.AT_LEAST_ONCE.name().equals(options.getCheckpointingMode());
  }

  /** One transactional writer per subtask of {@code --parallelism}, one if it is not set. */
  private static int writers(Integer parallelism) {
    return parallelism == null || parallelism < 1 ? 1 : parallelism;
  }
}
