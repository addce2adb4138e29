package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The shaded jar, submitted from its own command line to a real standalone Flink cluster with
 * {@code --flinkMaster=HOST:PORT}, runs {@code count} on the TaskManager and gives the same results
 * as the other runners.
 */
@ResourceLock(SharedFlinkCluster.LOCK)
@Order(SharedFlinkCluster.ORDER)
@ExtendWith(SharedFlinkCluster.class)
class FlinkClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A source that runs far longer than any test waits: 100 records a second for nearly 3 hours. Its
   * records are 10 ms of event time apart, so its watermark keeps pace with the clock, and a 1 s
   * window's rows come a few seconds after the job starts.
   */
  private static final String SLOW_GENERATOR =
      "--source=generator:records=1000000,keys=3,rate=100,seed=7";

  /** The names of the runs, for their files: most tests submit one, {@code SUBMIT}. */
  private static final String SUBMIT = "submit";

  private static final String DETACHED = "detached";

  private static final String ORPHANED = "orphaned";

  private static final Pattern SUBMITTED =
      Pattern.compile("tidemark: submitted job ([0-9a-f]{32}) \\((\\S+)\\) to (.+)");

  /** A series of tidemark's records-in counter as Flink's Prometheus reporter names it. */
  private static final Pattern PROMETHEUS_RECORDS_IN =
      Pattern.compile(
          "(?m)^flink_taskmanager_job_task_operator_tidemark_recordsIn(\\{.*\\}) (\\S+)$");

  private static final Pattern CANCELLED_SUMMARY =
      Pattern.compile(
          "tidemark: (\\d+) records in, (\\d+) results out, \\d+ late, \\d+ dead letters"
              + Pattern.quote(
                  " (cancelled from Flink's REST API or Web UI: counts up to the cancel)"));

  @TempDir Path directory;

  @Test
  void shadedJarRunsCountOnAStandaloneCluster(FlinkCluster cluster) throws Exception {
    List<String> lines = recording(1000, 3);
    Path input = directory.resolve("clicks.csv");
    Files.write(input, lines);

    Process submit = submitCount(cluster, "--source=file:" + input);
    try {
      assertEndsWell(submit);
      assertThat(cluster.latestJobState(), equalTo("FINISHED"));
    } finally {
      submit.destroyForcibly();
    }

    CsvReplayPrediction predicted = CsvReplayPrediction.of(lines, 1000, 1000, 500);
    assertThat(Outputs.finalCounts(Outputs.read(out())), equalTo(predicted.finalCounts));
    assertThat(Outputs.records(Outputs.read(late()), "late"), equalTo(predicted.late));
    assertThat(Outputs.records(Outputs.read(dead()), "deadLetter"), equalTo(predicted.dead));
    // The summary of a detached job, from its counters once it has finished, says the same.
    assertThat(
        Files.readString(log()),
        containsString(
            "tidemark: "
                + lines.size()
                + " records in, "
                + Outputs.read(out()).size()
                + " results out, "
                + predicted.late.size()
                + " late, "
                + predicted.dead.size()
                + " dead letters"));
  }

  /**
   * Three jobs side by side: one submitted detached, one by a client that waits and is cancelled
   * from the REST API, one by a client that waits and is killed.
   */
  @Test
  void aDetachedSubmitReturnsACancelEndsAWaitingClientAndAKilledClientsJobSaysSo(
      FlinkCluster cluster) throws Exception {
    // 2 slots for the detached job, under a name of its own; 1 each for the waiting clients' jobs.
    Process detached =
        submitCount(
            DETACHED, cluster, SLOW_GENERATOR, "--detached", "--jobName=tidemark-count-detached");
    @Nullable Process waiting = null;
    @Nullable Process orphaned = null;
    String waitingJob;
    try {
      // (1) The detached client returns once the cluster has its job, and names it.
      boolean returned = detached.waitFor(2, TimeUnit.MINUTES);
      assertThat(
          (returned ? "exit " + detached.exitValue() : "still running after 2 minutes")
              + "; its output:\n"
              + Files.readString(log(DETACHED))
              + "\n"
              + cluster.diagnosis(),
          returned && detached.exitValue() == 0,
          equalTo(true));
      String detachedJob = announcedJob(cluster, log(DETACHED), "tidemark-count-detached");
      // The waiting clients' jobs take the two slots left, submitted once the detached job has its
      // own: three clients submitting at once on two cores could keep its slots from it for longer
      // than the detached client waits while none is free, and it would rightly exit 1.
      waiting = submitCount(cluster, SLOW_GENERATOR, "--parallelism=1");
      orphaned =
          submitCount(
              ORPHANED,
              cluster,
              SLOW_GENERATOR,
              "--parallelism=1",
              "--jobName=tidemark-count-orphaned");
      // (2) The waiting clients name their jobs too; all run, and the REST API, which a waiting
      // client reads once a second, shows the waiting job's records.
      awaitResults(5);
      waitingJob = announcedJob(cluster, log(), "tidemark-count-generator");
      String orphanedJob = announcedJob(cluster, log(ORPHANED), "tidemark-count-orphaned");
      assertThat(cluster.jobState(detachedJob), equalTo("RUNNING"));
      assertThat(cluster.jobState(waitingJob), equalTo("RUNNING"));
      awaitRecordsShownByRest(cluster, waitingJob);
      // (3) Prometheus, scraping the nodes' reporters, sees the same counter of the same job.
      Matcher scraped = PROMETHEUS_RECORDS_IN.matcher(cluster.scrapePrometheus());
      List<Double> counts = new ArrayList<>();
      while (scraped.find()) {
        if (scraped.group(1).contains("job_id=\"" + waitingJob + "\"")) {
          counts.add(Double.parseDouble(scraped.group(2)));
        }
      }
      assertThat(counts.stream().mapToDouble(Double::doubleValue).sum(), greaterThan(0.0));
      // (4) A waiting client killed with SIGKILL leaves its job running, and the job says so in the
      // TaskManager's log: which job, and how to cancel it.
      orphaned.destroyForcibly().waitFor();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (cluster.taskManagerLines(clientGone(orphanedJob)).isEmpty()) {
        assertThat("no line in time", System.nanoTime() < deadline, equalTo(true));
        Thread.sleep(200);
      }
      String said = cluster.taskManagerLines(clientGone(orphanedJob));
      assertThat(
          said, containsString("(tidemark-count-orphaned) and waited for it, at 127.0.0.1:"));
      assertThat(said, containsString(", closed its connection without a word: the job runs on"));
      assertThat(said, containsString("flink cancel -m " + cluster.master() + " " + orphanedJob));
      assertThat(cluster.jobState(orphanedJob), equalTo("RUNNING"));
      // (5) A cancel from the REST API, as the Web UI's button sends it, ends the waiting client
      // with the counts up to the cancel and exit 0: no trace.
      cluster.cancelJobs();
      assertEndsWell(waiting);
    } finally {
      detached.destroyForcibly();
      if (waiting != null) {
        waiting.destroyForcibly();
      }
      if (orphaned != null) {
        orphaned.destroyForcibly();
      }
    }
    String log = Files.readString(log());
    Matcher summary = CANCELLED_SUMMARY.matcher(log);
    assertThat(log, summary.find(), equalTo(true));
    assertThat(log, Long.parseLong(summary.group(1)), greaterThan(0L));
    assertThat(log, Long.parseLong(summary.group(2)), greaterThan(0L));
    assertThat(log, not(containsString("Exception")));
    // A client that ends with its job has not gone: the job's log does not say it has.
    assertThat(cluster.taskManagerLines(clientGone(waitingJob)), equalTo(""));
  }

  /** The start of the line a job writes when the client that waited for it has gone. */
  private static String clientGone(String job) {
    return "the tidemark client that submitted job " + job + " (";
  }

  /**
   * A detached submission of a job that needs more slots than the cluster has (parallelism 8, 4
   * slots) does not end with exit 0 while the job waits or fails: it says why the job does not run
   * (tasks waiting while no slot is free, or the failure for want of slots) and exits 1. A job that
   * waits stays for the user to cancel.
   */
  @Test
  void aDetachedSubmitThatFindsNoFreeSlotSaysSoAndFails(FlinkCluster cluster) throws Exception {
    Process detached =
        submitCount(DETACHED, cluster, SLOW_GENERATOR, "--detached", "--parallelism=8");
    try {
      String log = log(DETACHED).toString();
      assertThat(log, detached.waitFor(2, TimeUnit.MINUTES), equalTo(true));
      String output = Files.readString(log(DETACHED));
      assertThat(output, detached.exitValue(), equalTo(1));
      String job = announcedJob(cluster, log(DETACHED), "tidemark-count-generator");
      assertThat(
          output,
          containsString("tidemark: job " + job + " (tidemark-count-generator) is not running: "));
      // Flink either keeps the tasks waiting for slots, or fails the job at once for want of
      // them (when its slot pool sees that the cluster cannot fit the job): each is said.
      assertThat(
          output,
          anyOf(
              containsString(" of them for a slot; the cluster has 0 free slots of 4;"),
              containsString("NoResourceAvailableException")));
    } finally {
      detached.destroyForcibly();
    }
  }

  /**
   * The id of the job that the client whose output is {@code log} says it submitted, checking the
   * rest of that line: the job's name, which the cluster lists it under, the cluster's address and
   * the job's page in its Web UI.
   */
  private static String announcedJob(FlinkCluster cluster, Path log, String name) throws Exception {
    String output = Files.readString(log);
    Matcher announced = SUBMITTED.matcher(output);
    assertThat(output, announced.find(), equalTo(true));
    String id = announced.group(1);
    assertThat(announced.group(2), equalTo(name));
    assertThat(cluster.jobName(id), equalTo(name));
    assertThat(
        announced.group(3),
        equalTo(
            cluster.master()
                + "; Web UI http://"
                + cluster.master()
                + "/#/job/running/"
                + id
                + "/overview"));
    return id;
  }

  /**
   * Waits until the REST API shows tidemark's count of records in of the job {@code id}; if it does
   * not in time, says what it showed last.
   */
  private static void awaitRecordsShownByRest(FlinkCluster cluster, String id) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    String counter = "." + TidemarkMetrics.NAMESPACE + "_" + TidemarkMetrics.RECORDS_IN;
    Map<String, String> shown = new TreeMap<>();
    Map<String, Integer> metricsPerVertex = new TreeMap<>();
    while (System.nanoTime() < deadline) {
      shown.clear();
      metricsPerVertex.clear();
      for (JsonNode vertex : JSON.readTree(cluster.rest("/jobs/" + id)).path("vertices")) {
        String metrics = "/jobs/" + id + "/vertices/" + vertex.path("id").asText() + "/metrics";
        JsonNode listed = JSON.readTree(cluster.rest(metrics));
        metricsPerVertex.put(vertex.path("name").asText(), listed.size());
        for (JsonNode metric : listed) {
          String name = metric.path("id").asText();
          if (name.endsWith(counter)) {
            JsonNode value =
                JSON.readTree(
                        cluster.rest(
                            metrics + "?get=" + URLEncoder.encode(name, StandardCharsets.UTF_8)))
                    .path(0)
                    .path("value");
            shown.put(name, value.asText());
            if (value.asLong() > 0) {
              return;
            }
          }
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "the REST API showed no records of "
            + id
            + " in time; its "
            + counter
            + " counters: "
            + shown
            + "; the number of metrics each vertex listed: "
            + metricsPerVertex
            + "; the job's state: "
            + cluster.jobState(id));
  }

  /** Waits until the job has written {@code count} results. */
  private void awaitResults(int count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (Outputs.read(out()).size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no results in time:\n" + Files.readString(log()));
      }
      Thread.sleep(200);
    }
  }

  /** The lines of the generator with 3 keys, 1.5 s out of order, 2 % late and 1 % malformed. */
  private static List<String> recording(long records, long seed) {
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(records)
        .withKeys(3)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(0.02)
        .withBadFraction(0.01)
        .withSeed(seed)
        .open()
        .forEachRemaining(lines::add);
    return lines;
  }

  /** {@code java -jar target/tidemark.jar count} on {@code cluster}, 1 s windows, into files. */
  private Process submitCount(FlinkCluster cluster, String... options) throws Exception {
    return submitCount(SUBMIT, cluster, options);
  }

  /** The same, for the run named {@code run}, into its own files. */
  private Process submitCount(String run, FlinkCluster cluster, String... options)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "count",
                "--windowSize=1s",
                "--allowedLateness=500ms",
                "--sink=file:" + out(run),
                "--lateSink=file:" + directory.resolve(run + "-late.json"),
                "--deadLetterSink=file:" + directory.resolve(run + "-dead.json"),
                "--flinkMaster=" + cluster.master()));
    args.addAll(List.of(options));
    if (args.stream().noneMatch(arg -> arg.startsWith("--parallelism="))) {
      args.add("--parallelism=2");
    }
    return TidemarkJar.run(args.toArray(String[]::new)).redirectOutput(log(run).toFile()).start();
  }

  private void assertEndsWell(Process submit) throws Exception {
    boolean ended = submit.waitFor(5, TimeUnit.MINUTES);
    assertThat(Files.readString(log()), ended && submit.exitValue() == 0, equalTo(true));
  }

  private Path out() {
    return out(SUBMIT);
  }

  private Path out(String run) {
    return directory.resolve(run + "-results.json");
  }

  private Path late() {
    return directory.resolve(SUBMIT + "-late.json");
  }

  private Path dead() {
    return directory.resolve(SUBMIT + "-dead.json");
  }

  private Path log() {
    return log(SUBMIT);
  }

  private Path log(String run) {
    return directory.resolve(run + ".log");
  }
}
