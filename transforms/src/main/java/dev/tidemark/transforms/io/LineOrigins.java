package dev.tidemark.transforms.io;

import java.io.Serializable;
import java.util.List;
import org.joda.time.Instant;

/**
 * Where each line of a recording came from, for a recording that knows more than the order of its
 * lines: a snapshot of a Kafka topic knows each record's partition, offset and Kafka timestamp. A
 * replay of such a recording judges its records by the live rule, with the arrival times as the
 * wall clock ({@link dev.tidemark.transforms.watermark.ArrivalClockWatermark}). Lines are numbered
 * from 1, in the recording's order.
 */
public interface LineOrigins extends Serializable {

  /** Every partition of the source, those that gave no line among them, in the source's order. */
  List<String> partitions();

  /** The partition that line {@code line} came from. */
  String partitionOf(long line);

  /** When line {@code line} arrived at its source: the clock that the live idle rule reads. */
  Instant arrivalOf(long line);

  /** How a person finds line {@code line} at its source again, e.g. {@code clicks-2@17}. */
  String nameOf(long line);
}
