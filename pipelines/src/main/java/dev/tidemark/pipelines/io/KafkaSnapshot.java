package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.transforms.io.CutLines;
import dev.tidemark.transforms.io.LineOrigins;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.model.SourcePosition;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * A snapshot of a Kafka topic, for {@code explain}: every partition from its earliest offset to the
 * end offset it had when the snapshot started, optionally only the records whose Kafka timestamp is
 * in a range, in the order of their Kafka timestamps (then partition, then offset), as the closest
 * evidence of the order in which a live reader met them. Each record knows its partition, offset
 * and timestamp ({@link LineOrigins}), so the replay judges it by the live rule with the timestamps
 * as the clock. Values are decoded as the live source decodes them ({@link KafkaText}): a value
 * that is not UTF-8, or longer than the limit, is a dead letter.
 *
 * <p>It is read with a plain consumer that is assigned every partition and commits nothing, so the
 * running job's consumer group is never touched, and it is held in memory: about the size of its
 * values. The consumer is written by hand: Beam's {@code KafkaIO} reads a topic only inside a
 * pipeline, and has no end.
 */
final class KafkaSnapshot implements RecordedLines, LineOrigins {

  private static final long serialVersionUID = 1L;

  /** How long one poll may wait for records that the end offsets say are there. */
  private static final Duration POLL = Duration.ofMillis(500);

  /** How long the whole snapshot may go without a record before it gives up. */
  private static final Duration STALL = Duration.ofSeconds(30);

  private final String topic;
  private final String description;
  private final List<String> partitions;
  private final List<Entry> entries;
  private final Map<Integer, long[]> offsetRanges;
  private final Instant takenAt;

  private KafkaSnapshot(
      String topic,
      String description,
      List<String> partitions,
      List<Entry> entries,
      Map<Integer, long[]> offsetRanges,
      Instant takenAt) {
    this.topic = topic;
    this.description = description;
    this.partitions = partitions;
    this.entries = entries;
    this.offsetRanges = offsetRanges;
    this.takenAt = takenAt;
  }

  /**
   * Reads {@code topic} at {@code bootstrapServers} up to its end offsets now, keeping the records
   * with a Kafka timestamp at or after {@code from} and before {@code to} (either may be null).
   *
   * @throws ConfigurationException if the topic has no partitions, or a partition stops short of
   *     its end offset for {@link #STALL}
   */
  static KafkaSnapshot read(
      String bootstrapServers,
      String topic,
      Map<String, String> clientProperties,
      int maxRecordBytes,
      @Nullable Instant from,
      @Nullable Instant to) {
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(consumerConfig(bootstrapServers, clientProperties))) {
      List<TopicPartition> assigned = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(topic)) {
        assigned.add(new TopicPartition(topic, info.partition()));
      }
      if (assigned.isEmpty()) {
        throw new ConfigurationException(
            "--source: topic '" + topic + "' at " + bootstrapServers + " has no partitions");
      }
      assigned.sort(Comparator.comparingInt(TopicPartition::partition));
      Instant takenAt = Instant.now();
      consumer.assign(assigned);
      consumer.seekToBeginning(assigned);
      Map<TopicPartition, Long> begin = consumer.beginningOffsets(assigned);
      Map<TopicPartition, Long> end = consumer.endOffsets(assigned);
      List<Entry> entries = new ArrayList<>();
      long lastProgress = System.nanoTime();
      while (!reachedEnd(consumer, assigned, end)) {
        boolean progressed = false;
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
          TopicPartition partition = new TopicPartition(record.topic(), record.partition());
          progressed = true;
          if (record.offset() >= end.get(partition) || !inRange(record.timestamp(), from, to)) {
            continue;
          }
          KafkaText value = KafkaText.of(record.value(), maxRecordBytes, null);
          entries.add(
              new Entry(
                  record.partition(),
                  record.offset(),
                  record.timestamp(),
                  value.text(),
                  value.deadReason()));
        }
        if (progressed) {
          lastProgress = System.nanoTime();
        } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
          throw new ConfigurationException(
              "--source: the snapshot of '"
                  + topic
                  + "' got no record for "
                  + STALL.toSeconds()
                  + " s before the end offsets it started with "
                  + end.values());
        }
      }
      entries.sort(
          Comparator.comparingLong(Entry::timestamp)
              .thenComparingInt(Entry::partition)
              .thenComparingLong(Entry::offset));
      List<String> partitions = new ArrayList<>();
      Map<Integer, long[]> offsetRanges = new HashMap<>();
      for (TopicPartition partition : assigned) {
        partitions.add(String.valueOf(partition.partition()));
        offsetRanges.put(
            partition.partition(), new long[] {begin.get(partition), end.get(partition)});
      }
      return new KafkaSnapshot(
          topic,
          "kafka://" + bootstrapServers + "/" + topic,
          List.copyOf(partitions),
          List.copyOf(entries),
          offsetRanges,
          takenAt);
    }
  }

  /**
   * The user's client properties (security, above all), without a consumer group: the snapshot
   * commits nothing, so the job's group keeps its offsets.
   */
  private static Map<String, Object> consumerConfig(
      String bootstrapServers, Map<String, String> clientProperties) {
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    return config;
  }

  private static boolean reachedEnd(
      KafkaConsumer<?, ?> consumer, List<TopicPartition> assigned, Map<TopicPartition, Long> end) {
    for (TopicPartition partition : assigned) {
      // The position passes transaction markers too, which no record stands for.
      if (consumer.position(partition) < end.get(partition)) {
        return false;
      }
    }
    return true;
  }

  private static boolean inRange(long timestamp, @Nullable Instant from, @Nullable Instant to) {
    return (from == null || timestamp >= from.getMillis())
        && (to == null || timestamp < to.getMillis());
  }

  /** The topic's partitions and the offsets the snapshot covers, for the explanation's header. */
  List<String> about() {
    List<String> about = new ArrayList<>();
    about.add(
        "a snapshot of "
            + entries.size()
            + " records, taken at "
            + takenAt
            + ": every partition from its earliest offset to its end offset then, replayed in the"
            + " order of the records' Kafka timestamps, with those timestamps as the clock of the"
            + " live rule (a partition without a record for --idleTimeout is idle)");
    for (String partition : partitions) {
      long[] range = offsetRanges.get(Integer.parseInt(partition));
      about.add(
          "  partition "
              + partition
              + ": offsets "
              + range[0]
              + " to "
              + range[1]
              + (range[0] == range[1] ? " (empty)" : ""));
    }
    about.add(
        "what a snapshot cannot know: a live reader interleaves the partitions as it polls them,"
            + " may read a backlog (then every partition holds the watermark until it is caught"
            + " up), and moves its watermark at its runner's pace, so records that arrive together"
            + " meet the same, older watermark: a live run can find fewer records late than this");
    return List.copyOf(about);
  }

  @Override
  public CutLines open() {
    return new CutLines() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < entries.size();
      }

      @Override
      public String next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return entries.get(next++).text();
      }

      @Override
      public @Nullable String whyCut() {
        return next == 0 ? null : entries.get(next - 1).deadReason();
      }
    };
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public OptionalLong totalLines() {
    return OptionalLong.of(entries.size());
  }

  @Override
  public Optional<LineOrigins> origins() {
    return Optional.of(this);
  }

  @Override
  public List<String> partitions() {
    return partitions;
  }

  @Override
  public String partitionOf(long line) {
    return String.valueOf(entry(line).partition());
  }

  @Override
  public Instant arrivalOf(long line) {
    return new Instant(entry(line).timestamp());
  }

  @Override
  public String nameOf(long line) {
    Entry entry = entry(line);
    return new SourcePosition(topic, entry.partition(), entry.offset()).toString();
  }

  private Entry entry(long line) {
    return entries.get(Math.toIntExact(line - 1));
  }

  /** One record of the snapshot: where it is, when Kafka stamped it, and its value. */
  private record Entry(
      int partition, long offset, long timestamp, String text, @Nullable String deadReason)
      implements Serializable {}
}
