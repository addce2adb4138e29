package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.replay.Replay;
import java.util.Optional;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * Where a pipeline's records come from: one class per scheme of {@link SourceUri}, or, in a test, a
 * {@code TestStream}. A pipeline is built from a source value and never parses a URI itself; which
 * rules decide the panes of its records is the pipeline's choice ({@code CountsOfSource}), made
 * from {@link #replay}.
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
   * The transform that reads and parses the records, applied to a pipeline's beginning: {@code
   * ParseEvents.EVENTS}, or {@code ParseEvents.EVENT_BATCHES} for a source that reads in batches,
   * and {@code ParseEvents.DEAD_LETTER}.
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException if an option the source needs is
   *     wrong
   */
  PTransform<PBegin, PCollectionTuple> read(EventFormat format, EventTimeSettings settings);
}
