package dev.tidemark.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes S5 records into a 2-partition topic at a steady rate, as a live service does: each
 * record's event time is the moment it is sent minus 0 to 1.5 s, over 20 (i, op) keys, the
 * partitions in turn. It keeps to the rate by the clock: after a pause (a GC, the other core busy)
 * it sends what the pause held back, all at the time it sends them, so the seconds of the pause
 * have no records: {@link #mostBehindMillis()} says how far behind its rate it fell.
 */
final class SteadyProducer implements AutoCloseable {

  /** How far behind the send time an event time may be. */
  static final long JITTER_MILLIS = 1_500;

  private static final int KEYS = 20;

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final Random random = new Random(42);
  private long sent;
  private long mostBehindMillis;

  SteadyProducer(String bootstrapServers, String topic) {
    this.topic = topic;
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.ACKS_CONFIG,
                "1",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class.getName()));
  }

  /**
   * Sends {@code perSecond} records a second until {@code untilMillis} (wall clock), calling {@code
   * each} with the number sent so far about every 10 ms.
   */
  void sendUntil(long perSecond, long untilMillis, java.util.function.LongConsumer each)
      throws InterruptedException {
    long start = System.currentTimeMillis();
    long now = start;
    while (now < untilMillis) {
      long due = (now - start) * perSecond / 1000;
      mostBehindMillis = Math.max(mostBehindMillis, (due - sent) * 1000 / perSecond);
      while (sent < due) {
        send(now);
      }
      each.accept(sent);
      Thread.sleep(10);
      now = System.currentTimeMillis();
    }
    producer.flush();
  }

  long sent() {
    return sent;
  }

  /**
   * The most time's worth of records it was behind its rate at any look at the clock: about 10 ms
   * when it kept up; more when the machine left it too little time, and then the job's input had
   * that long a gap.
   */
  long mostBehindMillis() {
    return mostBehindMillis;
  }

  private void send(long now) {
    int key = (int) (sent % KEYS);
    long t = now - (long) (random.nextDouble() * JITTER_MILLIS);
    String value =
        "{\"t\":"
            + t
            + ",\"st\":\"DIRECT\",\"i\":\"idx_"
            + key / 2
            + "\",\"op\":\""
            + (key % 2 == 0 ? "es_sink" : "kafka_sink")
            + "\"}";
    producer.send(
        new ProducerRecord<>(
            topic, (int) (sent % 2), null, value.getBytes(StandardCharsets.UTF_8)));
    sent++;
  }

  @Override
  public void close() {
    producer.close();
  }
}
