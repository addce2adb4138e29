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
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.util.EnvironmentInformation;

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
  static RunDirectory configure(TidemarkOptions options) {
    if (!"[local]".equals(options.getFlinkMaster())) {
      if (options.getWebUi() != null) {
        throw new ConfigurationException(
            "--webUi: only for an embedded run; a cluster serves its own Web UI at --flinkMaster");
      }
      return RunDirectory.NONE;
    }
    if (options.getFlinkConfDir() != null) {
      if (options.getWebUi() != null) {
        throw new ConfigurationException(
            "--webUi: with --flinkConfDir, set rest.port in your flink-conf.yaml instead");
      }
      return RunDirectory.NONE;
    }
    Integer webUi = options.getWebUi();
    if (webUi != null && (webUi < 1 || webUi > 65535)) {
      throw new ConfigurationException(
          "--webUi: " + webUi + " is not a port; use 1 to 65535, e.g. 8081");
    }
    int restPort = webUi == null ? RestPort.choose() : requireFree(webUi);
    Path run = runDirectory(restPort);
    options.setFlinkConfDir(run.toString());
    return RunDirectory.of(run);
  }

  /**
   * A new run directory: the loopback-only {@code flink-conf.yaml} with the REST API on {@code
   * restPort}, and the directory Flink writes its files in. The run owns it ({@link RunDirectory}).
   */
  private static Path runDirectory(int restPort) {
    try {
      Path run = Files.createTempDirectory(PREFIX);
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
              "metrics.fetcher.update-interval: 1000",
              "taskmanager.memory.managed.size: " + managedMemoryBytes());
      Files.write(run.resolve("flink-conf.yaml"), config, StandardCharsets.UTF_8);
      return run;
    } catch (IOException e) {
      throw new UncheckedIOException("creating the embedded run's directory", e);
    }
  }

  /**
   * The embedded TaskManager's managed memory (which only RocksDB and batch operators use; a run's
   * state is on the heap): Beam's share of the heap free now. Beam sets it itself when the
   * configuration does not, from the heap free after a full collection ({@code System.gc()}), which
   * stopped the run for 66 ms before its cluster started, in a recorded run.
   */
  private static long managedMemoryBytes() {
    return (long)
        (EnvironmentInformation.getSizeOfFreeHeapMemory()
            * TaskManagerOptions.MANAGED_MEMORY_FRACTION.defaultValue());
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
}
