package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.replay.Replay;
import java.util.Optional;

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

  /**
   * Whether it is a recording ({@code file:}, {@code generator:}, {@code sample:}), replayed as
   * fast as it is read, or at its rate, rather than read as its records come.
   */
  default boolean isRecording() {
    return false;
  }

  /** The recording this source replays, for the replay's rules; empty for a live source. */
  default Optional<Replay> replay(EventFormat format, EventTimeSettings settings) {
    return Optional.empty();
  }

  /**
   * How the records are read and parsed: a transform applied to a pipeline's beginning that gives
   * {@code ParseEvents.EVENTS} and {@code ParseEvents.DEAD_LETTER}, or, for a source that reads in
   * batches, the read of the batches and the parse of their records ({@link SourceRead}).
   *
   * @throws dev.tidemark.pipelines.config.ConfigurationException if an option the source needs is
   *     wrong
   */
  SourceRead read(EventFormat format, EventTimeSettings settings);
}
