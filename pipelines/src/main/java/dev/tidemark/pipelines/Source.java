package dev.tidemark.pipelines;

import dev.tidemark.transforms.parse.EventFormat;
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
}
