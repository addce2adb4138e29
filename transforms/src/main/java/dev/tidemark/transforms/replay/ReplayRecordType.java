package dev.tidemark.transforms.replay;

import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.parse.BadRecordException;
import java.io.Serializable;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.SerializableComparator;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What the replay's steps ({@link ReplayPanes}) need to know of the records they replay, so that
 * one engine replays tidemark's own events ({@link EventRecordType}) and a user's own type ({@link
 * KeyedRecordType}) by the same rules: how a line of each input becomes a record, the record's key
 * and event time, what a record whose window had expired becomes, in which order late records
 * arrived, and the coders of all three.
 *
 * @param <K> the key the records are aggregated by
 * @param <R> a record as the pane engine adds it, with what it needs to be ordered by arrival
 * @param <LateT> what a record whose window had expired becomes
 */
abstract class ReplayRecordType<K, R, LateT> implements Serializable {

  private static final long serialVersionUID = 1L;

  /**
   * The record in {@code line} of input number {@code input}, read by wall-clock time {@code now}.
   *
   * @throws BadRecordException with the reason, when the line cannot be used
   */
  abstract R read(int input, ArrivedLine line, Instant now) throws BadRecordException;

  /** The {@code --format} that reads {@code line}, a dead letter, if it looks written in one. */
  abstract @Nullable String formatThatReads(int input, ArrivedLine line);

  abstract K keyOf(R record);

  /**
   * What {@code key} is grouped by within a batch, as a shuffle groups it: the key coder's
   * structural value, which is the key itself when the coder is consistent with {@code equals}.
   */
  final Object groupingKey(K key) {
    return keyCoder().structuralValue(key);
  }

  abstract Instant eventTimeOf(R record);

  /** The watermark {@code record} met at its source. */
  abstract Instant arrivalWatermarkOf(R record);

  /** What {@code record} becomes, whose {@code window} had expired under {@code watermark}. */
  abstract LateT late(R record, IntervalWindow window, Instant watermark);

  /** Late records in the order a live run would have seen them: by arrival watermark, then line. */
  abstract SerializableComparator<R> arrivalOrder();

  abstract Coder<K> keyCoder();

  abstract Coder<R> recordCoder();

  abstract Coder<LateT> lateCoder();
}
