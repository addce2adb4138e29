package dev.tidemark.transforms.io.kafka;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Where a {@link KafkaTopicReader} is in each of its partitions: the offset of the next record to
 * read, and the partition's watermark when the mark was taken. A reader restored from it goes on
 * from those offsets, with those watermarks. Finalizing it hands it to the reader that took it,
 * which commits the offsets to the consumer group when asked to ({@code commitOffsetsInFinalize}).
 *
 * <p>The mark names that reader by an id, not by a reference: a runner may finalize a copy of the
 * mark, decoded from its coder (the DirectRunner does), and a reference would not survive that. A
 * reader that commits is registered under its id while it is open ({@link #register}); a mark whose
 * reader has closed is finalized without a commit, and the next mark commits its offsets.
 */
public final class KafkaOffsets implements UnboundedSource.CheckpointMark, Serializable {

  private static final long serialVersionUID = 1L;

  /** The open readers that commit, by id: what each does with a finalized mark. */
  private static final Map<String, Consumer<KafkaOffsets>> COMMITTERS = new ConcurrentHashMap<>();

  private final List<PartitionOffset> partitions;

  /** The id of the reader that commits this mark's offsets; null if none does. */
  private final @Nullable String committer;

  KafkaOffsets(List<PartitionOffset> partitions, @Nullable String committer) {
    this.partitions = List.copyOf(partitions);
    this.committer = committer;
  }

  /**
   * Registers what the reader of id {@code committer} does with its finalized marks, until {@link
   * #unregister}.
   */
  static void register(String committer, Consumer<KafkaOffsets> onFinalize) {
    COMMITTERS.put(committer, onFinalize);
  }

  /** The reader of id {@code committer} has closed: its marks are finalized without a commit. */
  static void unregister(String committer) {
    COMMITTERS.remove(committer);
  }

  /** Whether the reader that took this mark commits, and is still open. */
  boolean readerIsOpen() {
    return committer != null && COMMITTERS.containsKey(committer);
  }

  /** One partition's next offset, and its watermark in epoch milliseconds. */
  public record PartitionOffset(String topic, int partition, long nextOffset, long watermarkMillis)
      implements Serializable {

    TopicPartition topicPartition() {
      return new TopicPartition(topic, partition);
    }
  }

  public List<PartitionOffset> partitions() {
    return partitions;
  }

  /** The mark of {@code partition}, if this mark has one. */
  Optional<PartitionOffset> of(TopicPartition partition) {
    return partitions.stream()
        .filter(mark -> mark.partition() == partition.partition())
        .filter(mark -> mark.topic().equals(partition.topic()))
        .findFirst();
  }

  /** The watermark {@code partition} had when the mark was taken, if it has one. */
  Optional<Instant> watermarkOf(TopicPartition partition) {
    return of(partition).map(mark -> new Instant(mark.watermarkMillis()));
  }

  @Override
  public void finalizeCheckpoint() {
    Consumer<KafkaOffsets> onFinalize = committer == null ? null : COMMITTERS.get(committer);
    if (onFinalize != null) {
      onFinalize.accept(this);
    }
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof KafkaOffsets that
        && partitions.equals(that.partitions)
        && Objects.equals(committer, that.committer);
  }

  @Override
  public int hashCode() {
    return Objects.hash(partitions, committer);
  }

  @Override
  public String toString() {
    return "KafkaOffsets" + partitions;
  }
}
