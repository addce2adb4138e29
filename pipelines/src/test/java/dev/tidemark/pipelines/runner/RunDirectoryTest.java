package dev.tidemark.pipelines.runner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's directory is deleted only once the embedded cluster in it has closed: once Flink's RPC
 * system has deleted the jar it unpacked there.
 */
class RunDirectoryTest {

  @TempDir Path parent;

  /**
   * (1) A run ends while its cluster still closes: the RPC system's jar is still in the directory.
   * (2) Closing the run's directory waits until the cluster has deleted it, then (3) deletes the
   * directory.
   */
  @Test
  void closeWaitsForTheClusterToDeleteItsRpcSystemJar() throws Exception {
    Path directory = Files.createDirectory(parent.resolve("run"));
    Path jar = rpcSystemJarIn(directory);
    RunDirectory run = RunDirectory.of(directory);
    AtomicBoolean directoryThereAtTheDelete = new AtomicBoolean();
    Thread cluster =
        new Thread(
            () -> {
              try {
                // The cluster is still closing when the run closes its directory.
                Thread.sleep(300);
                directoryThereAtTheDelete.set(Files.exists(directory));
                Files.delete(jar);
              } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    cluster.start();
    run.close();
    cluster.join();
    assertThat(
        "the directory was there when the cluster deleted its jar",
        directoryThereAtTheDelete.get(),
        equalTo(true));
    assertThat("the directory, deleted", Files.exists(directory), equalTo(false));
  }

  /** Without a cluster's jar in it (a run that failed before its cluster started), no wait. */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aDirectoryWithoutAClustersJarIsNotWaitedFor() throws IOException {
    Path directory = Files.createDirectories(parent.resolve("run").resolve("files"));
    RunDirectory.awaitClusterClosed(directory, Duration.ofDays(1));
    RunDirectory.of(directory).close();
    assertThat(Files.exists(directory), equalTo(false));
  }

  /** A cluster that never closes does not keep the run from ending. */
  @Test
  void aClusterThatDoesNotCloseIsWaitedForAtMostTheWait() throws IOException {
    Path directory = Files.createDirectory(parent.resolve("run"));
    Path jar = rpcSystemJarIn(directory);
    RunDirectory.awaitClusterClosed(directory, Duration.ofMillis(200));
    assertThat(Files.exists(jar), equalTo(true));
  }

  /** The jar Flink's RPC system unpacks into {@code io.tmp.dirs}, named as Flink 1.19 names it. */
  private static Path rpcSystemJarIn(Path run) throws IOException {
    Path files = Files.createDirectory(run.resolve("files"));
    return Files.createFile(files.resolve("flink-rpc-akka" + UUID.randomUUID() + ".jar"));
  }
}
