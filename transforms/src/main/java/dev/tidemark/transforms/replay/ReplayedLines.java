package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.ParseEvents;
import java.io.Serializable;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn.MultiOutputReceiver;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * How the first step after a replay's source reads one line of input number {@code input}: into a
 * record of its type, or, when it cannot be used, into a dead letter with the reason, counted in
 * {@code tidemark:deadLetters} (and in the counter of the format that would read it, if any).
 */
final class ReplayedLines<K, R, LateT> implements Serializable {

  private static final long serialVersionUID = 1L;

  private final Counter deadLetters = TidemarkMetrics.deadLetters();
  private final ReplayRecordType<K, R, LateT> type;
  private final int input;

  ReplayedLines(ReplayRecordType<K, R, LateT> type, int input) {
    this.type = type;
    this.input = input;
  }

  /** The record in {@code line}, or null when it went to the dead letters. */
  @Nullable R read(ArrivedLine line, Instant now, MultiOutputReceiver out) {
    try {
      return type.read(input, line, now);
    } catch (BadRecordException e) {
      deadLetters.inc();
      String readBy = type.formatThatReads(input, line);
      if (readBy != null) {
        TidemarkMetrics.deadLettersLike(readBy).inc();
      }
      out.get(ParseEvents.DEAD_LETTER)
          .output(new DeadLetter(line.text(), e.getMessage(), line.source()));
      return null;
    }
  }
}
