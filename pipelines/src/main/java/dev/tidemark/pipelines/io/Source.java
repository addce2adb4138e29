package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.Optional;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * Where a pipeline's records come from: one class per scheme of {@link SourceUri}, or, in a test, a
 * {@code TestStream}. A pipeline is built from a source value and never parses a URI itself.
 */
public interface Source {

  /** Where the records come from, for log lines and errors. */
  String describe();

  /** Whether it starts from Beam's Impulse, which Flink must keep alive (sockets). */
  default boolean startsFromImpulse() {
    return false;
  }

  /** The recording this source replays, for the replay's rules; empty for a live source. */
  default Optional<Replay> replay(EventFormat format, EventTimeSettings settings) {
    return Optional.empty();
  }

  /**
   * Reads and parses the records: {@code ParseEvents.EVENTS} and {@code DEAD_LETTER}.
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException if an option the source needs is
   *     wrong
   */
  PCollectionTuple read(
      Pipeline pipeline, String name, EventFormat format, EventTimeSettings settings);

  /**
   * Reads, parses and counts per key and window: {@code CountPerWindow.RESULTS}, {@code LATE} and
   * {@code ParseEvents.DEAD_LETTER}; with the replay's rules for a recording, the live rules
   * ({@link CountPerWindow}) otherwise.
   */
  default PCollectionTuple countPerWindow(
      Pipeline pipeline,
      EventFormat format,
      EventTimeSettings settings,
      EventTimeWindowing windowing) {
    Optional<Replay> replay = replay(format, settings);
    PaneRules.log(this, replay.isPresent());
    if (replay.isPresent()) {
      return pipeline.apply("CountReplayPerWindow", replay.get().countPerWindow(windowing));
    }
    PCollectionTuple parsed = read(pipeline, "", format, settings);
    return parsed
        .get(ParseEvents.EVENTS)
        .apply("CountPerWindow", CountPerWindow.of(windowing))
        .and(ParseEvents.DEAD_LETTER, parsed.get(ParseEvents.DEAD_LETTER));
  }
}
