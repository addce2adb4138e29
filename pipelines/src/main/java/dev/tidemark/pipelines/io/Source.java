package dev.tidemark.pipelines;

import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.PCollectionTuple;

/** Where a pipeline's records come from, as {@link SourceUri} parsed it. */
interface Source {

  /** Whether this is a recording, replayed deterministically ({@code ReplaySource}). */
  default boolean isRecorded() {
    return false;
  }

  /** Whether it starts from Beam's Impulse, which Flink must keep alive (sockets). */
  default boolean startsFromImpulse() {
    return false;
  }

  /**
   * Reads and parses the records: {@code ParseEvents.EVENTS} and {@code DEAD_LETTER}.
   *
   * @throws ConfigurationException if an option the source needs is wrong
   */
  PCollectionTuple read(
      Pipeline pipeline, String name, EventFormat format, EventTimeSettings settings);

  /**
   * Reads, parses and counts per key and window: {@code CountPerWindow.RESULTS}, {@code LATE} and
   * {@code ParseEvents.DEAD_LETTER}. A live source uses {@link CountPerWindow}; a recording
   * overrides this with the replay's rules.
   */
  default PCollectionTuple countPerWindow(
      Pipeline pipeline,
      EventFormat format,
      EventTimeSettings settings,
      EventTimeWindowing windowing) {
    PCollectionTuple parsed = read(pipeline, "", format, settings);
    return parsed
        .get(ParseEvents.EVENTS)
        .apply("CountPerWindow", CountPerWindow.of(windowing))
        .and(ParseEvents.DEAD_LETTER, parsed.get(ParseEvents.DEAD_LETTER));
  }
}
