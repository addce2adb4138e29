package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

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
 * S5 in production shape when machines fail: {@code metrics}, and {@code sql} with sessions,
 * submitted from the shaded jar to a real Flink session cluster (two TaskManagers), reading a real
 * topic and writing to a results topic exactly once, while every TaskManager the job runs on is
 * killed as records stream in, and after upgrades through savepoints. Every window has one row,
 * read back from the results topic, with the count its records give once the job restores from its
 * checkpoint. (S5 at more readers than partitions is in {@code KafkaFaultsOnFlinkClusterIT}.)
 */
@ResourceLock(value = SharedKafkaBroker.LOCK, mode = ResourceAccessMode.READ)
@ResourceLock(SharedFlinkCluster.LOCK)
@Order(SharedFlinkCluster.ORDER)
@ExtendWith({SharedKafkaBroker.class, SharedFlinkCluster.class, SharedPostgresServer.class})
class KafkaOnFlinkClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern EVENT_TIME = Pattern.compile("\"t\":(\\d+)");

  /** Records per send while records stream in, and the pause between sends. */
  private static final int BATCH = 100;

  private static final Duration BETWEEN_BATCHES = Duration.ofMillis(700);

  /** The gap of the sessions of the job whose TaskManagers die while records stream in. */
  private static final long SESSION_GAP_MILLIS = 100;

  /**
   * Flink SQL's session table function over S5's records, per (i, op), with {@code metrics}' column
   * names; a session's end, to the millisecond, names it.
   */
  private static final String SESSIONS_QUERY =
      "SELECT i AS index_name, window_end AS event_time_log, op AS op_type,"
          + " COUNT(*) AS count_result FROM TABLE(SESSION(TABLE _source_table"
          + " PARTITION BY (i, op), DESCRIPTOR(rowtime), INTERVAL '0.1' SECOND))"
          + " GROUP BY window_start, window_end, i, op";

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
   * Sessions through an upgrade and the loss of every TaskManager at a busy moment, written exactly
   * once: {@code sql} runs Flink SQL's {@code SESSION} table function (a gap of 100 ms, some 1,500
   * sessions over 6 keys) and writes each session's final row only ({@code --emit=final}). (1) It
   * is stopped with a savepoint while records stream in, and records late for sessions that expired
   * long ago wait for the restored job, which the same jar and options start with {@code
   * --savepointPath}. (2) Its TaskManagers die while records stream in, soon after the restored
   * job's first checkpoint, with sessions half counted and the rows of over a second of records
   * since that checkpoint waiting for the next. A {@code read_committed} consumer of the results
   * topic then sees every session exactly once, with the count of all its records: none missing,
   * none doubled, none split or merged by a restore; and every late record is in the late topic, in
   * no session. (A checkpoint that takes in a record from after its barrier, as Beam's {@code
   * --fasterCopy} allowed, would show here only when the checkpoint is written out while the task
   * changes that count; {@code RunnerSettingsCheckpointTest} shows it every time.)
   */
  @Test
  void eachSessionsFinalRowIsWrittenOnceThroughAnUpgradeAndTheLossOfTheTaskManagers(
      KafkaBroker broker, FlinkCluster cluster) throws Exception {
    String topic = "sessions-streaming";
    String lateTopic = topic + "-late";
    List<String> lines = MetricsRows.records(8000, 14);
    Map<String, Long> expected = MetricsRows.expectedSessions(lines, SESSION_GAP_MILLIS);
    List<String> late = recordsLongBefore(lines);

    broker.createTopic(topic, 1);
    broker.createTopic(topic + "-per-second", 1);
    broker.createTopic(lateTopic, 1);
    // A steady stream from before the job starts until its TaskManagers die, then the rest at
    // once, a backlog for the restored job: the topic is never quiet for --idleTimeout while the
    // job runs and records are still to come, so the watermark follows the records' own event
    // time throughout. After a pause it would move on at the wall clock's pace, and the records
    // after the pause would be late, rightly (see the test below).
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
    String[] options = {
      "--emit=final",
      "--maxOutOfOrderness=2s",
      "--lateSink=kafka://" + broker.bootstrapServers() + "/" + lateTopic
    };
    Path log = directory.resolve(topic + ".log");
    Process submit = submitRestartingSessions(topic, broker, cluster, null, options);
    Map<String, Integer> rows = new TreeMap<>();
    Map<String, Long> counts = new TreeMap<>();
    try {
      // The job of this test, not the cancelled one of the test before.
      cluster.awaitLatestJob("RUNNING");
      awaitCompletedCheckpoints(cluster, 2);
      // (1) An upgrade through a savepoint, with late records waiting for the restored job.
      String savepoint = cluster.stopTheLatestJobWithASavepoint(directory.resolve("savepoints"));
      assertThat(
          Files.readString(log),
          submit.waitFor(2, TimeUnit.MINUTES) && submit.exitValue() == 0,
          equalTo(true));
      broker.send(topic, 0, late);
      submit = submitRestartingSessions(topic, broker, cluster, savepoint, options);
      cluster.awaitLatestJob("RUNNING");
      // (2) The kill comes some 1.5 s of records after the restored job's first checkpoint, before
      // its second: an at-least-once sink would have written the rows of the sessions those
      // records closed, and the restored job would write them again. With Beam's two stable-input
      // buffers, the exactly-once sink was handed the records of the second checkpoint when the
      // first completed, and the job after the kill numbered other rows the same: 2 % of the
      // sessions had no row, in 3 runs of 7 (RunnerSettings.CHECKPOINTS_AT_ONCE).
      awaitCompletedCheckpoints(cluster, 1);
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

      // (3) Every session's row comes, once the idle rule has closed the last ones.
      readRows(broker, topic, rows, counts, () -> rows.keySet().containsAll(expected.keySet()));
      System.out.printf(
          "every session's row in, read_committed, %d s after the TaskManagers were killed%n",
          Duration.ofNanos(System.nanoTime() - killedAt).toSeconds());
      assertThat(
          rows.keySet().containsAll(expected.keySet())
              ? ""
              : missing(expected.keySet(), rows.keySet())
                  + "; windows with more than one row: "
                  + moreThanOnce(rows)
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
      // (4) Two more checkpoints, the job's every transaction since committed: read to the end.
      readAllCommitted(broker, cluster, topic, rows, counts);
    } finally {
      cluster.cancelJobs();
      submit.destroyForcibly();
      sender.shutdownNow();
    }
    assertOneRowPerWindow(rows, counts, expected);
    Set<String> lateRead = new TreeSet<>();
    for (String value : broker.readCommitted(lateTopic, late.size(), Duration.ofMinutes(1))) {
      lateRead.add(JSON.readTree(value).path("record").asText());
    }
    assertThat(lateRead, equalTo(new TreeSet<>(late)));
  }

  /**
   * One record of each (i, op) key a minute before the first of {@code lines}: long after its
   * sessions expired, it could join none, and is late.
   */
  private static List<String> recordsLongBefore(List<String> lines) throws Exception {
    long first = Long.MAX_VALUE;
    Set<String> keys = new TreeSet<>();
    for (String line : lines) {
      JsonNode record = JSON.readTree(line);
      first = Math.min(first, record.get("t").asLong());
      keys.add(record.get("i").asText() + "|" + record.get("op").asText());
    }
    List<String> late = new ArrayList<>();
    for (String key : keys) {
      String[] parts = key.split("\\|");
      late.add(
          "{\"t\":"
              + (first - 60_000)
              + ",\"st\":\"DIRECT\",\"i\":\""
              + parts[0]
              + "\",\"op\":\""
              + parts[1]
              + "\"}");
    }
    return late;
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
   * S5 into a PostgreSQL table from the cluster, every pane written ({@code --emit=all}),
   * checkpoints every 2 s, parallelism 2: while records stream in, after a checkpoint and once rows
   * are in the table, every TaskManager the job runs on is killed. The restored job writes again
   * what it wrote since its checkpoint, and the table ends with exactly the expected row per
   * window, each final, with the count of all the window's records.
   */
  @Test
  void theTableEndsWithOneFinalRowPerWindowThroughTheLossOfTheTaskManagers(
      KafkaBroker broker, FlinkCluster cluster, PostgresServer server) throws Exception {
    String topic = "tabled-s5";
    broker.createTopic(topic, 2);
    List<String> lines = MetricsRows.records(6000, 57);
    Map<String, Long> expected = MetricsRows.expected(lines);
    List<String> args =
        ClusterMetrics.arguments(
            broker,
            directory,
            topic,
            "unused",
            "--checkpointingInterval=2000",
            "--numberOfExecutionRetries=10",
            "--executionRetryDelay=2000",
            "--jdbcProperties=" + server.superuserProperties(directory));
    args.set(2, "--sink=" + server.sink("s5_on_the_cluster"));
    Process job = cluster.submit(directory.resolve(topic + ".log"), args.toArray(String[]::new));
    String query =
        "SELECT index_name, event_time_log, op_type, count_result, final FROM s5_on_the_cluster"
            + " WHERE index_name <> 'closer'";
    try {
      cluster.awaitLatestJob("RUNNING");
      int sent = 0;
      boolean killed = false;
      while (sent < lines.size()) {
        sendToBothPartitions(broker, topic, lines.subList(sent, sent + BATCH));
        sent += BATCH;
        if (!killed && completedCheckpoints(cluster) >= 1 && !server.rows(query).isEmpty()) {
          cluster.killTheLatestJobsTaskManagers();
          killed = true;
          System.out.printf(
              "killed the TaskManagers with %d of %d records sent%n", sent, lines.size());
        }
        Thread.sleep(BETWEEN_BATCHES_AFTER_THE_KILL.toMillis());
      }
      assertThat("the TaskManagers died while records streamed in", killed, equalTo(true));
      sendClosers(broker, topic, lines);
      Map<String, Long> finals = new TreeMap<>();
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (!finals.equals(expected) && System.nanoTime() < deadline) {
        Thread.sleep(500);
        finals.clear();
        for (String row : server.rows(query + " AND final")) {
          String[] columns = row.split("\\|");
          finals.put(columns[0] + "|" + columns[1] + "|" + columns[2], Long.parseLong(columns[3]));
        }
      }
      assertThat(finals, equalTo(expected));
      assertThat(server.rows(query).size(), equalTo(expected.size()));
      assertRestoredFromACheckpoint(cluster);
      // The login reached the TaskManagers inside the job; no page or line shows the password.
      String configuration = cluster.latestJobConfiguration();
      assertThat(configuration, containsString("jdbcProperties"));
      assertThat(configuration, not(containsString(server.password())));
      assertThat(
          Files.readString(directory.resolve(topic + ".log")),
          not(containsString(server.password())));
    } finally {
      cluster.cancelJobs();
      job.destroyForcibly();
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

  /** The windows of {@code rows} that have more than one. */
  private static Map<String, Integer> moreThanOnce(Map<String, Integer> rows) {
    Map<String, Integer> moreThanOnce = new TreeMap<>(rows);
    moreThanOnce.values().removeIf(written -> written == 1);
    return moreThanOnce;
  }

  /** Every window of {@code expected} has one row, with its count. */
  private static void assertOneRowPerWindow(
      Map<String, Integer> rows, Map<String, Long> counts, Map<String, Long> expected) {
    assertThat("windows with more than one row", moreThanOnce(rows), equalTo(Map.of()));
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

  /**
   * How many of the {@code expected} windows have no row, and the first few of them; and the rows
   * of windows not expected, which a window split or merged by a restore would leave.
   */
  private static String missing(Set<String> expected, Set<String> windows) {
    List<String> missing = expected.stream().filter(w -> !windows.contains(w)).toList();
    List<String> unexpected = windows.stream().filter(w -> !expected.contains(w)).toList();
    return missing.size()
        + " of "
        + expected.size()
        + " windows have no row, e.g. "
        + missing.subList(0, Math.min(5, missing.size()))
        + "; "
        + unexpected.size()
        + " rows of windows not expected, e.g. "
        + unexpected.subList(0, Math.min(5, unexpected.size()));
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
   * {@code sql} with {@link #SESSIONS_QUERY} at parallelism 2, checkpointed every 3 s, restarted on
   * failure, from {@code savepoint} if not null, with the {@code more} options.
   */
  private Process submitRestartingSessions(
      String topic,
      KafkaBroker broker,
      FlinkCluster cluster,
      @Nullable String savepoint,
      String... more)
      throws Exception {
    List<String> options =
        new ArrayList<>(
            List.of(
                "--checkpointingInterval=" + STREAMING_CHECKPOINTS.toMillis(),
                "--numberOfExecutionRetries=10",
                "--executionRetryDelay=2000"));
    if (savepoint != null) {
      options.add("--savepointPath=" + savepoint);
    }
    options.addAll(Arrays.asList(more));
    return ClusterMetrics.submitSql(
        cluster,
        broker,
        directory,
        topic,
        topic + "-per-second",
        SESSIONS_QUERY,
        options.toArray(new String[0]));
  }
}
