package dev.tidemark.pipelines.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.metrics.TidemarkMetrics;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.flink.configuration.MetricOptions;

/**
 * A running job, seen and stopped through Flink's REST API (an embedded run's or a cluster's), for
 * what the FlinkRunner cannot give while it blocks in {@code run()}: the counts so far, whether
 * every operator has seen the end of its input, and a cancel. Written against the REST API
 * directly: Flink's {@code RestClusterClient} needs a {@code Configuration} and an executor for the
 * same four calls.
 */
final class FlinkJob {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final long DEFAULT_REFRESH_MILLIS =
      MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL.defaultValue();

  /** One client for every call: the watcher asks once a second. */
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /** The states of a job that will not run without a restart or a new submission. */
  private static final Set<String> NOT_STARTING =
      Set.of("FAILING", "FAILED", "RESTARTING", "CANCELLING", "CANCELED", "SUSPENDED");

  /** The states of a task that the job needs running but that does not run yet. */
  private static final Set<String> WAITING_TASK_STATES =
      Set.of("CREATED", "SCHEDULED", "DEPLOYING", "INITIALIZING");

  /** The states of a task that has no slot yet: later ones are deployed to the slot they have. */
  private static final Set<String> WITHOUT_A_SLOT = Set.of("CREATED", "SCHEDULED");

  private static final String CAUSED_BY = "Caused by: ";

  /** How many readings of the counters {@link #settledCounters} makes at the most. */
  private static final int MAX_SETTLING_READS = 10;

  private final String api;
  private final String id;

  private FlinkJob(String api, String id) {
    this.api = api;
    this.id = id;
  }

  /**
   * The running job named {@code name} at the REST address {@code hostPort}, but none of {@code
   * earlier}, if there is one.
   */
  static Optional<FlinkJob> running(String hostPort, String name, Set<String> earlier) {
    return newest(
        hostPort,
        name,
        job ->
            !earlier.contains(job.path("jid").asText())
                && job.path("state").asText().equals("RUNNING"));
  }

  /**
   * The job named {@code name} at the REST address {@code hostPort}, but none of {@code earlier},
   * that started last, whatever its state, if there is one: a job just submitted may still be
   * initializing.
   */
  static Optional<FlinkJob> newest(String hostPort, String name, Set<String> earlier) {
    return newest(hostPort, name, job -> !earlier.contains(job.path("jid").asText()));
  }

  /** The ids of every job the REST API at {@code hostPort} lists; none if it does not answer. */
  static Set<String> ids(String hostPort) {
    Set<String> ids = new HashSet<>();
    try {
      for (JsonNode job : get(api(hostPort) + "/jobs/overview").path("jobs")) {
        ids.add(job.path("jid").asText());
      }
    } catch (IOException e) {
      return Set.of();
    }
    return ids;
  }

  /**
   * Of the jobs named {@code name} that {@code which} accepts, the one that started last; empty if
   * there is none, or no REST API answers (yet).
   */
  private static Optional<FlinkJob> newest(
      String hostPort, String name, Predicate<JsonNode> which) {
    String api = api(hostPort);
    JsonNode newest = null;
    try {
      for (JsonNode job : get(api + "/jobs/overview").path("jobs")) {
        if (job.path("name").asText().equals(name)
            && which.test(job)
            && (newest == null
                || job.path("start-time").asLong() > newest.path("start-time").asLong())) {
          newest = job;
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.ofNullable(newest).map(job -> new FlinkJob(api, job.path("jid").asText()));
  }

  /**
   * What the REST API at {@code hostPort} lists, in a few words: each job's name and state, or why
   * it did not answer. For a message that says why no running job was found.
   */
  static String jobsListed(String hostPort) {
    try {
      List<String> jobs = new ArrayList<>();
      for (JsonNode job : get(api(hostPort) + "/jobs/overview").path("jobs")) {
        jobs.add(job.path("name").asText() + " " + job.path("state").asText());
      }
      return jobs.isEmpty() ? "it lists no job" : "it lists " + String.join(", ", jobs);
    } catch (IOException e) {
      return "it did not answer: " + e;
    }
  }

  /** Flink's id of the job. */
  String id() {
    return id;
  }

  /** The job's page in Flink's Web UI. */
  String webUi() {
    return api + "/#/job/running/" + id + "/overview";
  }

  /**
   * Whether every operator but the sources has seen the end of its input (the watermark at the end
   * of time): every window has fired and every result has been handed to its sink. A job that reads
   * a socket until it closes gets there, yet Flink keeps it running for the Impulse that started
   * the socket's reader.
   */
  boolean hasSeenTheEndOfItsInput() throws IOException {
    JsonNode job = get(api + "/jobs/" + id);
    Set<String> withInputs = new HashSet<>();
    for (JsonNode node : job.path("plan").path("nodes")) {
      if (node.path("inputs").size() > 0) {
        withInputs.add(node.path("id").asText());
      }
    }
    if (withInputs.isEmpty()) {
      return false;
    }
    for (String vertex : withInputs) {
      JsonNode watermarks = get(api + "/jobs/" + id + "/vertices/" + vertex + "/watermarks");
      // No watermark reported yet is not the end of anything.
      if (watermarks.size() == 0) {
        return false;
      }
      for (JsonNode watermark : watermarks) {
        if (watermark.path("value").asLong(Long.MIN_VALUE)
            < BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * How far the job has started: {@link JobStart.Phase#RUNNING} once no task waits to be deployed
   * (or the job has finished), {@link JobStart.Phase#STOPPED} when it is failing, restarting or
   * ended without finishing, with the first line of its latest failure, and otherwise {@link
   * JobStart.Phase#STARTING}, with how many tasks wait and the cluster's free slots.
   */
  JobStart start() throws IOException {
    JsonNode job = get(api + "/jobs/" + id);
    String state = job.path("state").asText();
    if (NOT_STARTING.contains(state)) {
      return new JobStart(JobStart.Phase.STOPPED, state + ": " + latestFailure(), false);
    }
    JsonNode statusCounts = job.path("status-counts");
    if (state.equals("FINISHED")
        || (state.equals("RUNNING") && waitingTasks(statusCounts, WAITING_TASK_STATES) == 0)) {
      return new JobStart(JobStart.Phase.RUNNING, state, false);
    }
    return starting(statusCounts, get(api + "/overview"));
  }

  /**
   * A job that is starting, from its tasks' {@code status-counts} and its cluster's {@code
   * /overview}: how many tasks wait to be deployed, and whether some wait for a slot that the
   * cluster does not have free.
   */
  static JobStart starting(JsonNode statusCounts, JsonNode cluster) {
    int tasks = 0;
    for (Map.Entry<String, JsonNode> count : statusCounts.properties()) {
      tasks += count.getValue().asInt();
    }
    int free = cluster.path("slots-available").asInt();
    int withoutASlot = waitingTasks(statusCounts, WITHOUT_A_SLOT);
    return new JobStart(
        JobStart.Phase.STARTING,
        waitingTasks(statusCounts, WAITING_TASK_STATES)
            + " of its "
            + tasks
            + " tasks wait to be deployed, "
            + withoutASlot
            + " of them for a slot; the cluster has "
            + free
            + " free slots of "
            + cluster.path("slots-total").asInt(),
        free == 0 && withoutASlot > 0);
  }

  private static int waitingTasks(JsonNode statusCounts, Set<String> states) {
    int waiting = 0;
    for (String state : states) {
      waiting += statusCounts.path(state).asInt();
    }
    return waiting;
  }

  /**
   * The root cause of the job's latest failure, its innermost "Caused by" (Flink wraps it in
   * exceptions about restarts), or a note that it has none.
   */
  private String latestFailure() throws IOException {
    JsonNode entries = get(api + "/jobs/" + id + "/exceptions").path("exceptionHistory");
    List<String> lines =
        entries.path("entries").path(0).path("stacktrace").asText().lines().toList();
    String cause = lines.isEmpty() ? "no failure listed" : lines.get(0);
    for (String line : lines) {
      if (line.startsWith(CAUSED_BY)) {
        cause = line.substring(CAUSED_BY.length());
      }
    }
    return cause;
  }

  /** tidemark's counters so far, summed over every operator and subtask, by name. */
  Map<String, Long> counters() throws IOException {
    Map<String, Long> counters = new HashMap<>();
    RunSummary.COUNTERS.forEach(name -> counters.put(name, 0L));
    for (JsonNode vertex : get(api + "/jobs/" + id).path("vertices")) {
      String metrics = api + "/jobs/" + id + "/vertices/" + vertex.path("id").asText() + "/metrics";
      for (JsonNode available : get(metrics)) {
        String metric = available.path("id").asText();
        int at = metric.lastIndexOf("." + TidemarkMetrics.NAMESPACE + "_");
        String name = at < 0 ? "" : metric.substring(at + TidemarkMetrics.NAMESPACE.length() + 2);
        if (counters.containsKey(name)) {
          JsonNode value =
              get(metrics + "?get=" + URLEncoder.encode(metric, StandardCharsets.UTF_8));
          counters.merge(name, value.path(0).path("value").asLong(), Long::sum);
        }
      }
    }
    return counters;
  }

  /**
   * The job's counters once two readings, {@code refreshes} refreshes of the REST API's metrics
   * apart, agree: the metrics of the bundles that ended last are in. Counters that still change
   * after {@link #MAX_SETTLING_READS} readings are taken as they are then, so a run always ends.
   */
  Map<String, Long> settledCounters(int refreshes) throws IOException, InterruptedException {
    long betweenReadings = refreshes * metricsRefreshMillis();
    Map<String, Long> previous = counters();
    for (int read = 1; read < MAX_SETTLING_READS; read++) {
      Thread.sleep(betweenReadings);
      Map<String, Long> current = counters();
      if (current.equals(previous)) {
        return current;
      }
      previous = current;
    }
    return previous;
  }

  /**
   * How often the REST API refreshes the metrics it shows ({@code metrics.fetcher.update-interval}
   * of the JobManager's configuration, Flink's default when it has none).
   */
  long metricsRefreshMillis() throws IOException {
    for (JsonNode entry : get(api + "/jobmanager/config")) {
      if (entry.path("key").asText().equals(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL.key())) {
        return entry.path("value").asLong(DEFAULT_REFRESH_MILLIS);
      }
    }
    return DEFAULT_REFRESH_MILLIS;
  }

  /** Cancels the job, as the Web UI's "Cancel Job" does. */
  void cancel() throws IOException {
    send(
        HttpRequest.newBuilder(URI.create(api + "/jobs/" + id + "?mode=cancel"))
            .timeout(TIMEOUT)
            .method("PATCH", HttpRequest.BodyPublishers.noBody())
            .build());
  }

  private static String api(String hostPort) {
    return "http://" + hostPort.replaceFirst("^https?://", "");
  }

  private static JsonNode get(String url) throws IOException {
    return JSON.readTree(
        send(HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build()));
  }

  private static String send(HttpRequest request) throws IOException {
    try {
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IOException(request.uri() + " answered HTTP " + response.statusCode());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + request.uri(), e);
    }
  }
}
