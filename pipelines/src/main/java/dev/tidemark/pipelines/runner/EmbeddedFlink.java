package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.RestOptions;

/**
 * The configuration of an embedded Flink run ({@code --flinkMaster=[local]}) when the user gives
 * none ({@code --flinkConfDir}): everything it listens on is bound to the loopback interface, so a
 * laptop running {@code count} exposes nothing to its network; and every file it writes (Flink's
 * RPC jar, BLOB store, shuffle and web upload directories) goes into one directory of the run's
 * own, deleted when the run ends, however it ends, so a job run from cron does not fill the disk. A
 * user who wants Flink reachable from elsewhere gives {@code --flinkConfDir} with their own {@code
 * flink-conf.yaml}.
 */
public final class EmbeddedFlink {

  private static final String PREFIX = "tidemark-run-";

  /** How many times {@link #deleteQuietly} walks a directory that is still there. */
  private static final int DELETE_PASSES = 10;

  private static final Set<Path> RUN_DIRECTORIES = ConcurrentHashMap.newKeySet();

  /** Deletes the runs' directories when the JVM exits, however it exits; made by the first run. */
  private static final AtomicBoolean CLEAN_UP_ON_EXIT = new AtomicBoolean();

  private EmbeddedFlink() {}

  /**
   * Gives an embedded run without a configuration of its own the loopback-only one, with Flink's
   * Web UI and REST API on {@code --webUi}'s port if given, and otherwise on a port that was free a
   * moment before: the command line stops a job and reads its counters through that API ({@link
   * #restAddress}). Beam's FlinkRunner starts the cluster itself and does not say where its REST
   * API listens, so the port is chosen here ({@link RestPort}); another process that binds the same
   * port in the second before Flink does makes the run fail as it starts, with Flink's "Address
   * already in use".
   */
  static void configure(TidemarkOptions options) {
    if (!"[local]".equals(options.getFlinkMaster())) {
      if (options.getWebUi() != null) {
        throw new ConfigurationException(
            "--webUi: only for an embedded run; a cluster serves its own Web UI at --flinkMaster");
      }
      return;
    }
    if (options.getFlinkConfDir() != null) {
      if (options.getWebUi() != null) {
        throw new ConfigurationException(
            "--webUi: with --flinkConfDir, set rest.port in your flink-conf.yaml instead");
      }
      return;
    }
    Integer webUi = options.getWebUi();
    if (webUi != null && (webUi < 1 || webUi > 65535)) {
      throw new ConfigurationException(
          "--webUi: " + webUi + " is not a port; use 1 to 65535, e.g. 8081");
    }
    int restPort = webUi == null ? RestPort.choose() : requireFree(webUi);
    options.setFlinkConfDir(runDirectory(restPort).toString());
  }

  /**
   * A new run directory: the loopback-only {@code flink-conf.yaml} with the REST API on {@code
   * restPort}, and the directory Flink writes its files in. Deleted by {@link #cleanUp}, or when
   * the JVM exits.
   */
  private static Path runDirectory(int restPort) {
    try {
      if (CLEAN_UP_ON_EXIT.compareAndSet(false, true)) {
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> RUN_DIRECTORIES.forEach(EmbeddedFlink::deleteQuietly),
                    "tidemark-run-directories"));
      }
      Path run = Files.createTempDirectory(PREFIX);
      RUN_DIRECTORIES.add(run);
      Path files = Files.createDirectory(run.resolve("files"));
      List<String> config =
          List.of(
              "jobmanager.bind-host: 127.0.0.1",
              "jobmanager.rpc.address: 127.0.0.1",
              "taskmanager.bind-host: 127.0.0.1",
              "taskmanager.host: 127.0.0.1",
              "rest.bind-address: 127.0.0.1",
              "rest.address: 127.0.0.1",
              "io.tmp.dirs: " + files,
              "web.tmpdir: " + files,
              "blob.storage.directory: " + files,
              "rest.port: " + restPort,
              // The Web UI and REST API show metrics a second old, not ten.
              "metrics.fetcher.update-interval: 1000");
      Files.write(run.resolve("flink-conf.yaml"), config, StandardCharsets.UTF_8);
      return run;
    } catch (IOException e) {
      throw new UncheckedIOException("creating the embedded run's directory", e);
    }
  }

  /**
   * Where the run's Flink REST API answers: the cluster's ({@code --flinkMaster}), or for an
   * embedded run the {@code rest.port} of its configuration ({@link #configure}, or the user's
   * {@code --flinkConfDir}); empty when that port is not known in advance.
   */
  public static Optional<String> restAddress(TidemarkOptions options) {
    String master = options.getFlinkMaster();
    if (FlinkMasterCheck.isCluster(master)) {
      return Optional.of(master);
    }
    String confDir = options.getFlinkConfDir();
    if (confDir == null) {
      return Optional.empty();
    }
    int port = GlobalConfiguration.loadConfiguration(confDir).get(RestOptions.PORT);
    return port > 0 ? Optional.of("127.0.0.1:" + port) : Optional.empty();
  }

  /** Deletes the run's directory, if {@link #configure} made one; at the end of a run. */
  public static void cleanUp(FlinkPipelineOptions options) {
    String confDir = options.getFlinkConfDir();
    if (confDir != null) {
      cleanUp(Path.of(confDir));
    }
  }

  /** Deletes {@code directory} if it is a {@link #runDirectory}; a user's is left alone. */
  private static void cleanUp(Path directory) {
    if (RUN_DIRECTORIES.remove(directory)) {
      deleteQuietly(directory);
    }
  }

  /**
   * {@code --webUi}'s port, if nothing listens on it: otherwise Flink fails while it starts, with a
   * stack trace, after the pipeline is built.
   */
  private static int requireFree(int webUi) {
    try (ServerSocket socket = new ServerSocket(webUi, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new ConfigurationException(
          "--webUi: 127.0.0.1:" + webUi + " is in use; choose another port, or leave --webUi out");
    }
  }

  /**
   * Deletes {@code directory} and everything in it. Flink's own shutdown hooks delete their
   * directories inside it at the same time, and a walk that meets a path they just removed stops
   * with an error; so the walk goes again while the directory is there. Each pass removes what it
   * reaches and nothing adds to the directory once the run has ended, so a few passes suffice.
   */
  private static void deleteQuietly(Path directory) {
    for (int pass = 0; pass < DELETE_PASSES && Files.exists(directory); pass++) {
      try (Stream<Path> paths = Files.walk(directory)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException | UncheckedIOException e) {
        // A path went away under the walk: the next pass goes on from what is left.
      }
    }
  }
}
