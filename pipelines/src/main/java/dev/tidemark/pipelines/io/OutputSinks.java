package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.KafkaClientProperties;
import dev.tidemark.pipelines.config.TidemarkOptions;
import java.util.Map;

/** The three places a pipeline writes to: results, late records, dead letters. */
public record OutputSinks(Sink results, Sink late, Sink deadLetters) {

  /**
   * The sinks of {@code --sink}, {@code --lateSink} and {@code --deadLetterSink}.
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException naming the option that is wrong
   */
  public static OutputSinks from(TidemarkOptions options) {
    Map<String, String> kafka = KafkaClientProperties.from(options);
    return new OutputSinks(
        SinkUri.parse("sink", options.getSink(), kafka),
        SinkUri.parse("lateSink", options.getLateSink(), kafka),
        SinkUri.parse("deadLetterSink", options.getDeadLetterSink(), kafka));
  }
}
