package dev.tidemark.pipelines.runner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.pipelines.config.RunnerSettings;
import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded cluster starts as soon as it is asked, before any pipeline exists; a run's job runs
 * on it, and it shuts down with the job, or on close when no job came. Each case reads the
 * cluster's REST API at the port of the run's configuration: had Beam started a cluster of its own
 * for the job, it would have found that port taken and failed.
 */
class EmbeddedClusterIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path directory;

  @Test
  void startsBeforeAnyPipelineAndStopsOnCloseWhenNoJobCame() throws Exception {
    TidemarkOptions options = embedded(2);
    String rest = EmbeddedFlink.restAddress(options).orElseThrow();
    try (EmbeddedCluster cluster = EmbeddedCluster.startFor(options)) {
      awaitOverview(rest, "\"taskmanagers\":1,\"slots-total\":2,");
    }
    awaitSilence(rest);
  }

  @Test
  void runsTheJobAndShutsDownWithIt() throws Exception {
    TidemarkOptions options = embedded(2);
    String rest = EmbeddedFlink.restAddress(options).orElseThrow();
    try (EmbeddedCluster cluster = EmbeddedCluster.startFor(options)) {
      awaitOverview(rest, "\"taskmanagers\":1,");
      assertThat(runOn(cluster, options), equalTo(0));
    }
    awaitSilence(rest);
  }

  @Test
  void takesTheSlotsOfAUsersConfiguration() throws Exception {
    Path confDir = Files.createDirectory(directory.resolve("conf"));
    Files.write(
        confDir.resolve("flink-conf.yaml"),
        List.of("taskmanager.numberOfTaskSlots: 3", "rest.bind-address: 127.0.0.1"));
    TidemarkOptions options = options(2);
    options.setFlinkConfDir(confDir.toString());
    try (EmbeddedCluster cluster = EmbeddedCluster.startFor(options)) {
      MiniCluster started = cluster.startedCluster();
      String rest = "127.0.0.1:" + started.getRestAddress().get().getPort();
      awaitOverview(rest, "\"slots-total\":3,");
      assertThat(runOn(cluster, options), equalTo(0));
    }
  }

  @Test
  void aRunOnAClusterStartsNothing() {
    TidemarkOptions options = options(2);
    options.setFlinkMaster("localhost:8081");
    assertThat(EmbeddedCluster.startFor(options) == EmbeddedCluster.NONE, equalTo(true));
  }

  @Test
  void aRunOnTheDirectRunnerStartsNothing() {
    TidemarkOptions options = options(2);
    options.setRunner(DirectRunner.class);
    assertThat(options.getFlinkMaster(), equalTo("[local]"));
    assertThat(EmbeddedCluster.startFor(options) == EmbeddedCluster.NONE, equalTo(true));
  }

  /** An embedded run's options, its configuration written as the command line writes it. */
  private static TidemarkOptions embedded(int parallelism) {
    TidemarkOptions options = options(parallelism);
    EmbeddedFlink.configure(options);
    return options;
  }

  private static TidemarkOptions options(int parallelism) {
    TidemarkOptions options = PipelineOptionsFactory.as(TidemarkOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setParallelism(parallelism);
    RunnerSettings.apply(options, false);
    return options;
  }

  /**
   * A small job, run as the command line runs one (a streaming job, as every tidemark run is);
   * returns its exit code.
   */
  private static int runOn(EmbeddedCluster cluster, TidemarkOptions options) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(Create.of(1, 2, 3, 4, 5, 6))
        .apply(MapElements.into(TypeDescriptors.integers()).via(n -> n * n));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      return PipelineRun.run(pipeline, cluster, new PrintStream(err, true, StandardCharsets.UTF_8));
    } finally {
      EmbeddedFlink.cleanUp(options);
    }
  }

  /** Waits for the overview of Flink's REST API at {@code hostPort} to contain {@code part}. */
  private static void awaitOverview(String hostPort, String part) throws InterruptedException {
    Instant deadline = Instant.now().plus(WAIT);
    Optional<String> overview = Optional.empty();
    while (Instant.now().isBefore(deadline)) {
      overview = overview(hostPort);
      if (overview.isPresent() && overview.get().contains(part)) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "the overview at "
            + hostPort
            + " did not show "
            + part
            + " within "
            + WAIT
            + ": "
            + overview);
  }

  /** Waits for Flink's REST API at {@code hostPort} to stop answering. */
  private static void awaitSilence(String hostPort) throws InterruptedException {
    Instant deadline = Instant.now().plus(WAIT);
    while (Instant.now().isBefore(deadline)) {
      if (overview(hostPort).isEmpty()) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the cluster at " + hostPort + " still answers after " + WAIT);
  }

  private static Optional<String> overview(String hostPort) throws InterruptedException {
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://" + hostPort + "/overview"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
    } catch (IOException notListening) {
      return Optional.empty();
    }
  }
}
