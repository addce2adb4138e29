package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.instanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.pipelines.cli.Tidemark;
import dev.tidemark.pipelines.config.EmbeddedCluster;
import dev.tidemark.pipelines.config.EmbeddedFlink;
import dev.tidemark.pipelines.config.RunnerSettings;
import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded cluster the command line starts early ({@link EmbeddedCluster}) is up before the
 * pipeline is built, runs its job, stops with it, and leaves Flink's context environment and the
 * options as they were; a cluster that cannot start fails the run, and the command line exits.
 */
class EmbeddedClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir Path directory;

  @Test
  void isUpBeforeThePipelineIsBuiltAndRunsItsJob() throws Exception {
    TidemarkOptions options = embeddedRun();
    try (EmbeddedCluster cluster = EmbeddedCluster.notStarted()) {
      options.setEmbeddedCluster(cluster);
      RunnerSettings.prepare(options, false);
      String rest = awaitRestAddress(options);

      JsonNode overview = awaitSlots(rest, 2);
      assertThat(overview.get("jobs-finished").asInt(), equalTo(0));

      PipelineResult result = cluster.run(countThree(options));

      assertThat(result.getState(), equalTo(PipelineResult.State.DONE));
      assertThat(counted(result), equalTo(3L));
      assertThat(options.getFlinkMaster(), equalTo("[local]"));
      assertThat(
          StreamExecutionEnvironment.getExecutionEnvironment(),
          instanceOf(LocalStreamEnvironment.class));
      // The job ran on this cluster, not on one of its own: its end stopped this one.
      awaitStopped(rest);
      cluster.close();
    } finally {
      EmbeddedFlink.cleanUp(options);
    }
  }

  @Test
  void startedEarlyIsTheRunsWhenItsOptionsAskForIt() throws Exception {
    TidemarkOptions options = embeddedRun();
    try (EarlyCluster early = startedEarlyFor(options, 2)) {
      RunnerSettings.prepare(options, false);
      String rest = awaitRestAddress(options);
      awaitSlots(rest, 2);

      PipelineResult result = early.cluster().run(countThree(options));

      assertThat(result.getState(), equalTo(PipelineResult.State.DONE));
      assertThat(counted(result), equalTo(3L));
      // The run took the early cluster's directory, and ran its job on that cluster.
      assertThat(Path.of(options.getFlinkConfDir()), equalTo(early.directory()));
      awaitStopped(rest);
      early.close();
      assertThat(Files.exists(early.directory()), equalTo(false));
    }
  }

  @Test
  void startedEarlyForAnotherRunStopsAndTheRunStartsItsOwn() throws Exception {
    TidemarkOptions options = embeddedRun();
    Set<Path> before = runDirectories();
    try (EarlyCluster early = startedEarlyFor(options, 3)) {
      String earlyRest = awaitRestAddress(options);
      awaitSlots(earlyRest, 3);

      RunnerSettings.prepare(options, false);

      assertThat(Files.exists(early.directory()), equalTo(false));
      awaitStopped(earlyRest);
      String rest = awaitRestAddress(options);
      awaitSlots(rest, 2);
      PipelineResult result = early.cluster().run(countThree(options));
      assertThat(result.getState(), equalTo(PipelineResult.State.DONE));
      assertThat(counted(result), equalTo(3L));
    } finally {
      EmbeddedFlink.cleanUp(options);
    }
    assertThat(runDirectories(), equalTo(before));
  }

  @Test
  void startedEarlyForABadConfigurationLeavesNothingBehind() {
    Set<Path> before = runDirectories();

    CommandLine run = CommandLine.run("count", "--windowSize=abc");

    assertThat(run.exitCode, equalTo(Tidemark.BAD_CONFIGURATION));
    assertThat(run.err, containsString("--windowSize: 'abc' is not a duration"));
    assertThat(runDirectories(), equalTo(before));
  }

  @Test
  void thatCannotStartFailsTheRun() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      TidemarkOptions options = embeddedRun();
      options.setFlinkConfDir(confWithRestPort(taken.getLocalPort()).toString());
      try (EmbeddedCluster cluster = EmbeddedCluster.notStarted()) {
        options.setEmbeddedCluster(cluster);
        RunnerSettings.prepare(options, false);

        Pipeline pipeline = countThree(options);
        RuntimeException failed = assertThrows(RuntimeException.class, () -> cluster.run(pipeline));

        assertThat(rootCause(failed), instanceOf(BindException.class));
        assertThat(options.getFlinkMaster(), equalTo("[local]"));
      }
    }
  }

  @Test
  void thatCannotStartEndsTheCommandLine() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Path log = directory.resolve("run.log");
      Process run =
          TidemarkJar.run("count", "--flinkConfDir=" + confWithRestPort(taken.getLocalPort()))
              .redirectOutput(log.toFile())
              .start();

      assertThat("ends within 2 min", run.waitFor(2, TimeUnit.MINUTES), equalTo(true));
      assertThat(run.exitValue(), equalTo(Tidemark.FAILED));
      assertThat(Files.readString(log), containsString("BindException"));
    }
  }

  @Test
  void thatIsNeverStartedLeavesTheRunToItsRunner() {
    TidemarkOptions options =
        PipelineOptionsFactory.fromArgs("--runner=DirectRunner").as(TidemarkOptions.class);
    try (EmbeddedCluster cluster = EmbeddedCluster.notStarted()) {
      options.setEmbeddedCluster(cluster);
      RunnerSettings.prepare(options, false);

      PipelineResult result = cluster.run(countThree(options));

      assertThat(result.waitUntilFinish(), equalTo(PipelineResult.State.DONE));
      assertThat(counted(result), equalTo(3L));
    }
  }

  /** The run directories in the temporary directory, where {@link EmbeddedFlink} makes them. */
  private static Set<Path> runDirectories() {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files
          .filter(file -> file.getFileName().toString().startsWith("tidemark-run-"))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A cluster {@link EmbeddedCluster#startedEarly started early}, and the directory it made. */
  private record EarlyCluster(EmbeddedCluster cluster, Path directory) implements AutoCloseable {
    @Override
    public void close() {
      cluster.close();
    }
  }

  /**
   * Starts a cluster early at {@code parallelism}, as the command line does for {@code options}.
   */
  private static EarlyCluster startedEarlyFor(TidemarkOptions options, int parallelism) {
    Set<Path> before = runDirectories();
    EmbeddedCluster cluster = EmbeddedCluster.startedEarly(parallelism);
    options.setEmbeddedCluster(cluster);
    Set<Path> made = new HashSet<>(runDirectories());
    made.removeAll(before);
    assertThat(made.size(), equalTo(1));
    return new EarlyCluster(cluster, made.iterator().next());
  }

  /** A {@code flink-conf.yaml} of the user's, on the loopback interface, REST on {@code port}. */
  private Path confWithRestPort(int port) throws IOException {
    Path conf = Files.createDirectories(directory.resolve("conf-" + port));
    Files.write(
        conf.resolve("flink-conf.yaml"),
        List.of(
            "rest.bind-address: 127.0.0.1",
            "rest.address: 127.0.0.1",
            "jobmanager.bind-host: 127.0.0.1",
            "taskmanager.bind-host: 127.0.0.1",
            "taskmanager.host: 127.0.0.1",
            "rest.port: " + port));
    return conf;
  }

  private static TidemarkOptions embeddedRun() {
    return PipelineOptionsFactory.fromArgs(
            "--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2")
        .as(TidemarkOptions.class);
  }

  private static Pipeline countThree(TidemarkOptions options) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply(Create.of(1, 2, 3)).apply(ParDo.of(new CountFn()));
    return pipeline;
  }

  private static long counted(PipelineResult result) {
    return result
        .metrics()
        .queryMetrics(
            MetricsFilter.builder()
                .addNameFilter(MetricNameFilter.named(CountFn.class, "seen"))
                .build())
        .getCounters()
        .iterator()
        .next()
        .getAttempted();
  }

  /** The cluster's REST address: known once it is up, on the port Flink bound itself. */
  private static String awaitRestAddress(TidemarkOptions options) throws Exception {
    return withinAMinute(
        "the embedded cluster's REST address", () -> EmbeddedFlink.restAddress(options));
  }

  /** The cluster's overview once it offers {@code slots} slots. */
  private JsonNode awaitSlots(String rest, int slots) throws Exception {
    return withinAMinute(
        slots + " slots at " + rest,
        () -> {
          try {
            JsonNode overview = overview(rest);
            return overview.path("slots-total").asInt() == slots
                ? Optional.of(overview)
                : Optional.empty();
          } catch (ConnectException notYet) {
            return Optional.empty();
          }
        });
  }

  /** Returns once nothing answers at {@code rest} any more. */
  private void awaitStopped(String rest) throws Exception {
    withinAMinute(
        "the cluster at " + rest + " stopped after its job",
        () -> {
          try {
            overview(rest);
            return Optional.empty();
          } catch (ConnectException stopped) {
            return Optional.of(rest);
          } catch (IOException stopping) {
            // Taken, then dropped, while the endpoint shuts down: ask again.
            return Optional.empty();
          }
        });
  }

  /** What {@code probe} finds, asked every 100 ms; fails naming {@code what} after a minute. */
  private static <T> T withinAMinute(String what, Probe<T> probe) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      Optional<T> found = probe.find();
      if (found.isPresent()) {
        return found.get();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("not within a minute: " + what);
  }

  /** One look for what a test waits for: empty while it is not there yet. */
  @FunctionalInterface
  private interface Probe<T> {
    Optional<T> find() throws Exception;
  }

  private JsonNode overview(String rest) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://" + rest + "/overview")).build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  private static Throwable rootCause(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** Counts the elements it sees. */
  private static final class CountFn extends DoFn<Integer, Integer> {
    private final Counter seen = Metrics.counter(CountFn.class, "seen");

    @ProcessElement
    public void processElement(@Element Integer element, OutputReceiver<Integer> out) {
      seen.inc();
      out.output(element);
    }
  }
}
