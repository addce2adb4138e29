package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka benchmark's input: the benchmark file's S5 records on a topic, line n on partition n
 * modulo the partitions, written once before any run is timed; and what its complete windows must
 * count.
 *
 * <p>A live job never sees the end of a topic, so a run is done when its results are exact for
 * every complete window: each 1 s window that ends no later than the lowest, over the partitions,
 * of the newest event time on the partition minus the 2 s of out-of-orderness. Every variant's
 * watermark passes those ends with the records on the topic alone, whatever its idle handling does
 * with the rest. The benchmark's records are never out of order by more than 2 s, so none of them
 * is late.
 *
 * @param bootstrapServers the broker
 * @param topic the topic
 * @param records records on the topic
 * @param completeUpTo the newest end of a complete window, epoch milliseconds
 * @param inCompleteWindows records whose window is complete: what exact results count
 */
record S5Topic(
    String bootstrapServers,
    String topic,
    long records,
    long completeUpTo,
    long inCompleteWindows) {

  static final int PARTITIONS = 2;
  static final long WINDOW_MILLIS = 1_000;
  static final long OUT_OF_ORDERNESS_MILLIS = 2_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Creates {@code topic} on the broker and sends every line of {@code input} to it. */
  static S5Topic fill(String bootstrapServers, Path input, String topic) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      admin
          .createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    long[] newestPerPartition = new long[PARTITIONS];
    Arrays.fill(newestPerPartition, Long.MIN_VALUE);
    long records = 0;
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class.getName(),
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024,
            ProducerConfig.ACKS_CONFIG,
            "all");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config);
        BufferedReader lines = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        int partition = (int) (records % PARTITIONS);
        producer.send(new ProducerRecord<>(topic, partition, null, line));
        newestPerPartition[partition] = Math.max(newestPerPartition[partition], eventTime(line));
        records++;
      }
      producer.flush();
    }
    long completeUpTo =
        Arrays.stream(newestPerPartition).min().orElseThrow() - OUT_OF_ORDERNESS_MILLIS;
    return new S5Topic(
        bootstrapServers, topic, records, completeUpTo, inComplete(input, completeUpTo));
  }

  /** Whether a window that ends at {@code windowEnd} is complete. */
  boolean isComplete(long windowEnd) {
    return windowEnd <= completeUpTo;
  }

  /** The arguments that give this topic to a child JVM ({@link #fromArgs}). */
  List<String> args() {
    return List.of(
        bootstrapServers,
        topic,
        Long.toString(records),
        Long.toString(completeUpTo),
        Long.toString(inCompleteWindows));
  }

  static S5Topic fromArgs(String[] args, int from) {
    return new S5Topic(
        args[from],
        args[from + 1],
        Long.parseLong(args[from + 2]),
        Long.parseLong(args[from + 3]),
        Long.parseLong(args[from + 4]));
  }

  private static long inComplete(Path input, long completeUpTo) throws IOException {
    long count = 0;
    try (BufferedReader lines = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        long eventTime = eventTime(line);
        long windowEnd = Math.floorDiv(eventTime, WINDOW_MILLIS) * WINDOW_MILLIS + WINDOW_MILLIS;
        if (windowEnd <= completeUpTo) {
          count++;
        }
      }
    }
    return count;
  }

  private static long eventTime(String line) throws IOException {
    return JSON.readTree(line).get("t").asLong();
  }
}
