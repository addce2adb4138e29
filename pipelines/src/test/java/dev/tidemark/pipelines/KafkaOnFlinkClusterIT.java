package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.testing.KafkaBroker;
import dev.tidemark.transforms.testing.SharedKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * S5 in production shape when machines fail: {@code metrics} submitted from the shaded jar to a
 * real Flink session cluster (two TaskManagers), reading a real topic and writing to a results
 * topic exactly once, while every TaskManager the job runs on is killed as records stream in, and
 * after upgrades through savepoints. Every window has one row, read back from the results topic,
 * with the count its records give once the job restores from its checkpoint. (S5 at more readers
 * than partitions is in {@code KafkaFaultsOnFlinkClusterIT}.)
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ResourceLock(SharedFlinkCluster.LOCK)
@Order(SharedFlinkCluster.ORDER)
@ExtendWith({SharedKafkaBroker.class, SharedFlinkCluster.class})
class KafkaOnFlinkClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern EVENT_TIME = Pattern.compile("\"t\":(\\d+)");

  /** Records per send while records stream in, and the pause between sends. */
  private static final int BATCH = 100;

  private static final Duration BETWEEN_BATCHES = Duration.ofMillis(700);

  /** The checkpoint interval of the job whose TaskManagers die while records stream in. */
  private static final Duration STREAMING_CHECKPOINTS = Duration.ofSeconds(3);

  /**
   * Batches sent between a checkpoint and the kill: 1.4 s of records, less than half an interval.
   */
  private static final int ROWS_OUT_SINCE_THE_CHECKPOINT = 2;

  /**
   * The pause once the TaskManagers are dead: the rest of the stream is the backlog the restored
   * job reads, and it need not arrive at the pace of the first part.
   */
  private static final Duration BETWEEN_BATCHES_AFTER_THE_KILL = Duration.ofMillis(100);

  /**
   * Records waiting on one partition when a job restores: enough that the restored job reads them
   * at full speed for several seconds, holding the watermark back behind them while the late
   * records of the other partition reach the pane step.
   */
  private static final int RESTORE_BACKLOG = 200_000;

  /**
   * Upgrades through a savepoint before the TaskManagers die: one, so that the late records of the
   * two restores, the upgrade's and the loss's, wait on each partition in turn.
   */
  private static final int UPGRADES = 1;

  /** The records sent before the first job and after each restore. */
  private static final int PART = 400;

  @TempDir Path directory;

  /**
   * The loss of every TaskManager at a busy moment, written exactly once: the job's TaskManagers
   * die while records stream in, with windows half counted and the rows of over a second of records
   * since the last checkpoint waiting for the next, and the job writes each window's final row only
   * ({@code --emit=final}). A {@code read_committed} consumer of the results topic then sees every
   * window exactly once, with the count of all its records: none missing, none doubled, none
   * counted twice. (A checkpoint that takes in a record from after its barrier, as Beam's {@code
   * --fasterCopy} allowed, would show here only when the checkpoint is written out while the task
   * changes that count; {@code RunnerSettingsCheckpointTest} shows it every time.)
   */
  @Test
  void eachWindowsFinalRowIsWrittenOnceWhenTheTaskManagersDieWhileRecordsStreamIn(
      KafkaBroker broker, FlinkCluster cluster) throws Exception {
    String topic = "stats-streaming";
    List<String> lines = MetricsRows.records(6000, 14);
    Map<String, Long> expected = MetricsRows.expected(lines);

    broker.createTopic(topic, 1);
    broker.createTopic(topic + "-per-second", 1);
    // A steady stream from before the job starts until its TaskManagers die, then the rest at
    // once, a backlog for the restored job: the topic is never quiet for --idleTimeout while the
    // job runs and records are still to come, so the watermark follows the records' own event
    // time throughout. After a pause it would move on at the wall clock's pace, and the records
    // after the pause would be late, rightly (see the test above).
    ExecutorService sender = Executors.newSingleThreadExecutor();
    AtomicInteger batchesSent = new AtomicInteger();
    AtomicBoolean killed = new AtomicBoolean();
    Future<?> sent =
        sender.submit(
            () -> {
              for (int from = 0; from < lines.size(); from += BATCH) {
                broker.send(topic, 0, lines.subList(from, from + BATCH));
                batchesSent.incrementAndGet();
                Thread.sleep(
                    (killed.get() ? BETWEEN_BATCHES_AFTER_THE_KILL : BETWEEN_BATCHES).toMillis());
              }
              return null;
            });
    Path log = directory.resolve(topic + ".log");
    Process submit =
        submitRestartingMetrics(topic, broker, cluster, STREAMING_CHECKPOINTS, "--emit=final");
    Map<String, Integer> rows = new TreeMap<>();
    Map<String, Long> counts = new TreeMap<>();
    try {
      // The job of this test, not the cancelled one of the test before.
      cluster.awaitLatestJob("RUNNING");
      // (1) The kill comes some 1.5 s of records after a checkpoint, before the next one: an
      // at-least-once sink would have written the rows of the windows those records closed, and
      // the restored job would write them again.
      awaitCompletedCheckpoints(cluster, 2);
      int checkpointsBeforeTheKill = completedCheckpoints(cluster);
      int batchesAtTheCheckpoint = batchesSent.get();
      while (batchesSent.get() < batchesAtTheCheckpoint + ROWS_OUT_SINCE_THE_CHECKPOINT) {
        Thread.sleep(50);
      }
      int batchesBeforeTheKill = batchesSent.get();
      cluster.killTheLatestJobsTaskManagers();
      long killedAt = System.nanoTime();
      int checkpointsAtTheKill = completedCheckpoints(cluster);
      killed.set(true);
      sent.get(3, TimeUnit.MINUTES);
      System.out.printf(
          "killed the TaskManagers after %d checkpoints (%d at the kill), with %d of %d batches"
              + " sent%n",
          checkpointsBeforeTheKill,
          checkpointsAtTheKill,
          batchesBeforeTheKill,
          lines.size() / BATCH);
      assertThat(
          "the TaskManagers died while records streamed in",
          batchesBeforeTheKill < lines.size() / BATCH,
          equalTo(true));

      // (2) Every window's row comes, once the idle rule has closed the last ones.
      readRows(broker, topic, rows, counts, () -> rows.keySet().containsAll(expected.keySet()));
      System.out.printf(
          "every window's row in, read_committed, %d s after the TaskManagers were killed%n",
          Duration.ofNanos(System.nanoTime() - killedAt).toSeconds());
      assertThat(
          rows.keySet().containsAll(expected.keySet())
              ? ""
              : missing(expected.keySet(), rows.keySet())
                  + "\n"
                  + lateRecords(directory.resolve(topic + "-late.json"))
                  + "\n"
                  + cluster.diagnosis()
                  + "\nwhat the reader and the exactly-once sink logged:"
                  + cluster.taskManagerLines(
                      "already", "skipped", "handed over", "enced", " is IDLE", " is ACTIVE")
                  + "\n"
                  + Files.readString(log),
          rows.keySet(),
          equalTo(expected.keySet()));
      assertRestoredFromACheckpoint(cluster);
      // (3) Two more checkpoints, the job's every transaction since committed: read to the end.
      readAllCommitted(broker, cluster, topic, rows, counts);
    } finally {
      cluster.cancelJobs();
      submit.destroyForcibly();
      sender.shutdownNow();
    }
    assertOneRowPerWindow(rows, counts, expected);
  }

  /** Whether the nodes' Prometheus reporters serve both gauges of both partitions, within 60 s. */
  private static boolean awaitPartitionGauges(FlinkCluster cluster, String topic)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      String scraped = cluster.scrapePrometheus();
      boolean all = true;
      for (String gauge : List.of("watermark", "activity")) {
        for (int partition = 0; partition < 2; partition++) {
          all &=
              scraped.contains(
                  "flink_taskmanager_job_task_operator_tidemark_"
                      + gauge
                      + "_"
                      + topic
                      + "_"
                      + partition
                      + "_{");
        }
      }
      if (all || System.nanoTime() > deadline) {
        return all;
      }
      Thread.sleep(500);
    }
  }

  /**
   * An upgrade as docs/production.md tells it, then the loss of every TaskManager, with records
   * late for closed windows waiting at each restore: every window has exactly one row, with the
   * count of all its on-time records, and every late record is in the late topic and in no window.
   * A restore that judged the late records by the minimum watermark a restored operator starts from
   * would count them in new windows, with a second final row each.
   *
   * <p>(1) The job reads the first part of the records and writes, exactly once ({@code
   * --emit=final}, checkpoints every 2 s, 2 partitions read at parallelism 4), the rows of the
   * windows their watermark closes. (2) It is stopped with a savepoint, and the client ends with
   * exit 0; records late for windows that closed before the stop wait on one partition, the two in
   * turn, and on the other a backlog at the oldest event time of the records to come; then the next
   * part of the records; and the same jar and options restore it with {@code --savepointPath}. (3)
   * Its TaskManagers die after a checkpoint, and the same comes while the job restores from it. (4)
   * One record an hour later on each partition closes every window, and a {@code read_committed}
   * consumer reads the results and late topics.
   */
  @Test
  void upgradesAndATaskManagerLossWriteOneRowPerWindowAndKeepLateRecordsLate(
      KafkaBroker broker, FlinkCluster cluster) throws Exception {
    String topic = "upgrades";
    String lateTopic = topic + "-late";
    broker.createTopic(topic, 2);
    broker.createTopic(topic + "-per-second", 1);
    broker.createTopic(lateTopic, 1);
    List<String> lines = MetricsRows.records(PART * (UPGRADES + 2), 33);
    Map<String, Long> expected = MetricsRows.expected(lines);
    String[] options = {
      "--idleTimeout=2m",
      "--emit=final",
      "--checkpointingInterval=2000",
      "--parallelism=4",
      "--lateSink=kafka://" + broker.bootstrapServers() + "/" + lateTopic
    };
    Map<String, Integer> rows = new TreeMap<>();
    Map<String, Long> counts = new TreeMap<>();
    List<String> late = new ArrayList<>();
    Set<String> closedEarlier = new TreeSet<>();
    int sent = PART;
    long killedAt = 0;
    long resubmitted = 0;
    sendToBothPartitions(broker, topic, lines.subList(0, sent));
    Process job = submitUpgrade(cluster, broker, topic, options, null);
    try {
      for (int restore = 1; restore <= UPGRADES + 1; restore++) {
        // (1) The rows of the windows closed so far are written: every record sent has been read.
        Set<String> closed = closedBy(lines.subList(0, sent), expected);
        readRows(broker, topic, rows, counts, () -> rows.keySet().containsAll(closed));
        assertThat(rows.keySet(), equalTo(closed));
        if (resubmitted != 0) {
          System.out.printf(
              "upgrade %d: every row of the part sent with it in, %d ms after resubmission%n",
              restore - 1, Duration.ofNanos(System.nanoTime() - resubmitted).toMillis());
        }
        if (restore == 1) {
          // Each partition's watermark and activity are where operators look: a Prometheus scrape.
          assertThat(awaitPartitionGauges(cluster, topic), equalTo(true));
        }
        if (restore <= UPGRADES) {
          // (2) An upgrade through a savepoint.
          long stopping = System.nanoTime();
          String savepoint =
              cluster.stopTheLatestJobWithASavepoint(directory.resolve("savepoints"));
          assertThat(
              Files.readString(directory.resolve(topic + ".log")),
              job.waitFor(2, TimeUnit.MINUTES) && job.exitValue() == 0,
              equalTo(true));
          System.out.printf(
              "upgrade %d: stopped with a savepoint in %d ms%n",
              restore, Duration.ofNanos(System.nanoTime() - stopping).toMillis());
          sent =
              sendWhatARestoreMeets(
                  broker, topic, lines, sent, restore % 2, closed, closedEarlier, late, expected);
          resubmitted = System.nanoTime();
          job = submitUpgrade(cluster, broker, topic, options, savepoint);
          cluster.awaitLatestJob("RUNNING");
          System.out.printf(
              "upgrade %d: resubmitted, running in %d ms%n",
              restore, Duration.ofNanos(System.nanoTime() - resubmitted).toMillis());
        } else {
          // (3) The loss of every TaskManager, after a checkpoint that holds all read so far.
          awaitCompletedCheckpoints(cluster, completedCheckpoints(cluster) + 1);
          cluster.killTheLatestJobsTaskManagers();
          killedAt = System.nanoTime();
          sent =
              sendWhatARestoreMeets(
                  broker, topic, lines, sent, restore % 2, closed, closedEarlier, late, expected);
        }
      }
      // (4) An hour later on each partition: every window closes.
      sendClosers(broker, topic, lines);
      readRows(broker, topic, rows, counts, () -> rows.keySet().containsAll(expected.keySet()));
      System.out.printf(
          "every window's row in, read_committed, %d ms after the TaskManagers were killed%n",
          Duration.ofNanos(System.nanoTime() - killedAt).toMillis());
      assertRestoredFromACheckpoint(cluster);
      readAllCommitted(broker, cluster, topic, rows, counts);
    } finally {
      cluster.cancelJobs();
      job.destroyForcibly();
    }
    assertOneRowPerWindow(rows, counts, expected);
    Set<String> lateRead = new TreeSet<>();
    for (String value : broker.readCommitted(lateTopic, late.size(), Duration.ofMinutes(1))) {
      lateRead.add(JSON.readTree(value).path("record").asText());
    }
    assertThat(lateRead, equalTo(new TreeSet<>(late)));
  }

  private Process submitUpgrade(
      FlinkCluster cluster,
      KafkaBroker broker,
      String topic,
      String[] options,
      @Nullable String savepoint)
      throws Exception {
    List<String> args = new ArrayList<>(Arrays.asList(options));
    if (savepoint != null) {
      args.add("--savepointPath=" + savepoint);
      args.add("--numberOfExecutionRetries=10");
      args.add("--executionRetryDelay=2000");
    }
    return ClusterMetrics.submit(
        cluster, broker, directory, topic, topic + "-per-second", args.toArray(String[]::new));
  }

  /** The windows of {@code expected} that the watermark of {@code sent} closes (2 s bound). */
  private static Set<String> closedBy(List<String> sent, Map<String, Long> expected) {
    long watermark = Math.min(newestEventTime(sent, 0), newestEventTime(sent, 1)) - 2000;
    Set<String> closed = new TreeSet<>();
    for (String window : expected.keySet()) {
      if (MetricsRows.windowEnd(window) <= watermark) {
        closed.add(window);
      }
    }
    return closed;
  }

  /**
   * What a restoring job meets: on {@code latePartition}, a record late for each window of {@code
   * closed} that had none yet; on the other, a backlog at the oldest event time of the next part of
   * {@code lines}, which {@code expected} then counts; then that part. Returns how many of {@code
   * lines} are sent.
   */
  private static int sendWhatARestoreMeets(
      KafkaBroker broker,
      String topic,
      List<String> lines,
      int sent,
      int latePartition,
      Set<String> closed,
      Set<String> closedEarlier,
      List<String> late,
      Map<String, Long> expected)
      throws Exception {
    Set<String> fresh = new TreeSet<>(closed);
    fresh.removeAll(closedEarlier);
    closedEarlier.addAll(closed);
    List<String> lateNow = lateRecordsFor(fresh);
    broker.send(topic, latePartition, lateNow);
    late.addAll(lateNow);
    List<String> part = lines.subList(sent, sent + PART);
    int backlogPartition = 1 - latePartition;
    List<String> backlog =
        Collections.nCopies(
            RESTORE_BACKLOG,
            "{\"t\":"
                + eventTimes(part, backlogPartition).min().orElseThrow()
                + ",\"st\":\"DIRECT\",\"i\":\"backlog\",\"op\":\"es_sink\"}");
    broker.send(topic, backlogPartition, backlog);
    MetricsRows.expected(backlog)
        .forEach((window, count) -> expected.merge(window, count, Long::sum));
    sendToBothPartitions(broker, topic, part);
    return sent + PART;
  }

  /**
   * After two more checkpoints, when the job's every transaction since has committed: the results
   * topic read to its end, {@code read_committed}, as {@link #readRows} counts it.
   */
  private static void readAllCommitted(
      KafkaBroker broker,
      FlinkCluster cluster,
      String topic,
      Map<String, Integer> rows,
      Map<String, Long> counts)
      throws Exception {
    awaitCompletedCheckpoints(cluster, completedCheckpoints(cluster) + 2);
    rows.clear();
    counts.clear();
    broker
        .readCommitted(topic + "-per-second", 0, Duration.ofMinutes(1))
        .forEach(value -> countRow(value, rows, counts));
  }

  /** Every window of {@code expected} has one row, with its count. */
  private static void assertOneRowPerWindow(
      Map<String, Integer> rows, Map<String, Long> counts, Map<String, Long> expected) {
    Map<String, Integer> moreThanOnce = new TreeMap<>(rows);
    moreThanOnce.values().removeIf(written -> written == 1);
    assertThat("windows with more than one row", moreThanOnce, equalTo(Map.of()));
    assertThat(rows.keySet(), equalTo(expected.keySet()));
    assertThat(counts, equalTo(expected));
  }

  /** One record in the middle of each of {@code windows}, as {@link MetricsRows} names them. */
  private static List<String> lateRecordsFor(Set<String> windows) {
    List<String> late = new ArrayList<>();
    for (String window : windows) {
      String[] parts = window.split("\\|");
      late.add(
          "{\"t\":"
              + (MetricsRows.windowEnd(window) - 500)
              + ",\"st\":\"DIRECT\",\"i\":\""
              + parts[0]
              + "\",\"op\":\""
              + parts[2]
              + "\"}");
    }
    return late;
  }

  /** A record an hour after the newest of {@code lines} on each partition: every window closes. */
  private static void sendClosers(KafkaBroker broker, String topic, List<String> lines)
      throws Exception {
    long anHourLater = newestEventTime(lines, 0) + Duration.ofHours(1).toMillis();
    for (int partition = 0; partition < 2; partition++) {
      broker.send(
          topic,
          partition,
          List.of(
              "{\"t\":" + anHourLater + ",\"st\":\"DIRECT\",\"i\":\"closer\",\"op\":\"es_sink\"}"));
    }
  }

  /** Sends {@code lines} alternately to partitions 0 and 1 of {@code topic}, in order. */
  private static void sendToBothPartitions(KafkaBroker broker, String topic, List<String> lines)
      throws Exception {
    for (int partition = 0; partition < 2; partition++) {
      List<String> ofPartition = new ArrayList<>();
      for (int i = partition; i < lines.size(); i += 2) {
        ofPartition.add(lines.get(i));
      }
      broker.send(topic, partition, ofPartition);
    }
  }

  /** The newest event time of the records of {@code lines} that go to {@code partition}. */
  private static long newestEventTime(List<String> lines, int partition) {
    return eventTimes(lines, partition).max().orElse(Long.MIN_VALUE);
  }

  /** The event times of the records of {@code lines} that go to {@code partition}. */
  private static LongStream eventTimes(List<String> lines, int partition) {
    LongStream.Builder times = LongStream.builder();
    for (int i = partition; i < lines.size(); i += 2) {
      Matcher t = EVENT_TIME.matcher(lines.get(i));
      if (t.find()) {
        times.add(Long.parseLong(t.group(1)));
      }
    }
    return times.build();
  }

  /**
   * Reads the results topic from its start until {@code done}: how many rows each window has in
   * {@code rows}, and its count in {@code counts} (both filled anew).
   */
  private static void readRows(
      KafkaBroker broker,
      String topic,
      Map<String, Integer> rows,
      Map<String, Long> counts,
      BooleanSupplier done) {
    rows.clear();
    counts.clear();
    TopicValues.read(
        broker.bootstrapServers(),
        topic + "-per-second",
        Duration.ofMinutes(4),
        value -> countRow(value, rows, counts),
        done);
  }

  /** Counts a results row in {@code rows} of its window, and keeps its count in {@code counts}. */
  private static void countRow(String value, Map<String, Integer> rows, Map<String, Long> counts) {
    JsonNode row = MetricsRows.readJson(value);
    String window = MetricsRows.windowOf(row);
    rows.merge(window, 1, Integer::sum);
    counts.put(window, row.get("count_result").asLong());
  }

  /** How many of the {@code expected} windows have no row, and the first few of them. */
  private static String missing(Set<String> expected, Set<String> windows) {
    List<String> missing = expected.stream().filter(w -> !windows.contains(w)).toList();
    return missing.size()
        + " of "
        + expected.size()
        + " windows have no row, e.g. "
        + missing.subList(0, Math.min(5, missing.size()));
  }

  /**
   * How many records the job wrote as late, and the first and last window they were late for:
   * windows with no row whose records all came late point at the watermark, not at the sink.
   */
  private static String lateRecords(Path lateFile) throws Exception {
    if (!Files.exists(lateFile)) {
      return "no late records";
    }
    List<JsonNode> late = new ArrayList<>();
    for (String line : Files.readAllLines(lateFile)) {
      late.add(JSON.readTree(line));
    }
    TreeSet<Long> windowStarts = new TreeSet<>();
    late.forEach(record -> windowStarts.add(record.path("windowStart").asLong()));
    return late.isEmpty()
        ? "no late records"
        : late.size()
            + " late records, for windows starting "
            + windowStarts.first()
            + " to "
            + windowStarts.last()
            + ", e.g. "
            + late.get(0);
  }

  private static void assertRestoredFromACheckpoint(FlinkCluster cluster) throws Exception {
    JsonNode checkpoints = JSON.readTree(cluster.checkpoints());
    assertThat(
        "restored from a checkpoint: " + checkpoints,
        checkpoints.path("latest").path("restored").has("id"),
        equalTo(true));
  }

  private static void awaitCompletedCheckpoints(FlinkCluster cluster, int count) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (completedCheckpoints(cluster) < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no checkpoint completed in time; " + cluster.diagnosis());
      }
      Thread.sleep(200);
    }
  }

  private static int completedCheckpoints(FlinkCluster cluster) throws Exception {
    return JSON.readTree(cluster.checkpoints()).path("counts").path("completed").asInt();
  }

  /**
   * {@code metrics} at parallelism 2, checkpointed every {@code interval}, restarted on failure,
   * with the {@code more} options.
   */
  private Process submitRestartingMetrics(
      String topic, KafkaBroker broker, FlinkCluster cluster, Duration interval, String... more)
      throws Exception {
    List<String> options =
        new ArrayList<>(
            List.of(
                "--checkpointingInterval=" + interval.toMillis(),
                "--numberOfExecutionRetries=10",
                "--executionRetryDelay=2000"));
    options.addAll(Arrays.asList(more));
    return ClusterMetrics.submit(
        cluster, broker, directory, topic, topic + "-per-second", options.toArray(new String[0]));
  }
}
