package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.EventTimeSettings;
import java.util.Map;
import org.joda.time.Duration;

/**
 * Kafka sources on a broker that is never asked, for tests that build a pipeline and read nothing:
 * building one opens no connection.
 */
public final class UnaskedKafka {

  /** metrics' event-time settings, reading from the earliest offsets. */
  public static final EventTimeSettings EVENT_TIME =
      new EventTimeSettings(
          Duration.standardSeconds(2),
          Duration.standardSeconds(3),
          Duration.standardSeconds(3),
          Duration.standardMinutes(15),
          "earliest",
          null);

  private UnaskedKafka() {}

  /** The topic {@code topic}, read as {@code input}'s records. */
  public static Source topic(String topic, PipelineInput input) {
    return SourceUri.parse("source", "kafka://127.0.0.1:9/" + topic, input, 1 << 20, Map.of());
  }
}
