package dev.tidemark.pipelines.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The directory of one embedded run ({@link EmbeddedFlink}), owned by the run that made it: deleted
 * when the run ends ({@link #close}), or, if the JVM exits first however it exits, by a shutdown
 * hook of its own, which {@link #close} removes again. {@link #NONE} is a run that made none.
 *
 * <p>An embedded cluster closes by itself once its job has ended, after the job's result has
 * reached the client: Flink's per-job MiniCluster starts closing when the result is known and does
 * not wait for that to finish. When Flink's own loader loaded its RPC system, the last thing it
 * closes is that system, which then closes the class loader of the jar it unpacked into {@code
 * io.tmp.dirs} and deletes that jar. A JVM that exits before that runs the JVM shutdown hook of
 * each actor system still up, and a hook that loads a class after its class loader has closed
 * prints a {@code NoClassDefFoundError} after the run's summary. So {@link #close} first waits, up
 * to {@link #CLUSTER_CLOSE_WAIT}, until no such jar is left in the directory: until the cluster has
 * closed. {@code tidemark.jar} loads the system from its own class path ({@link
 * ClassPathRpcSystemLoader}), whose classes stay loaded: there is no such jar, and no wait.
 */
public final class RunDirectory implements AutoCloseable {

  /**
   * A run without a directory of its own: a cluster's, the DirectRunner's, a user's configuration.
   */
  static final RunDirectory NONE = new RunDirectory(null, null);

  /** How long {@link #close} waits at most for the embedded cluster to close: it takes a second. */
  static final Duration CLUSTER_CLOSE_WAIT = Duration.ofSeconds(10);

  /** The start of the name of the jar Flink's RPC system unpacks, and deletes when it closes. */
  private static final String RPC_SYSTEM_JAR = "flink-rpc-";

  /** How many times {@link #deleteQuietly} walks a directory that is still there. */
  private static final int DELETE_PASSES = 10;

  private final @Nullable Path directory;
  private final @Nullable Thread onExit;

  private RunDirectory(@Nullable Path directory, @Nullable Thread onExit) {
    this.directory = directory;
    this.onExit = onExit;
  }

  /** Takes {@code directory} for a run: it goes when the run closes it, or when the JVM exits. */
  static RunDirectory of(Path directory) {
    Thread onExit = new Thread(() -> deleteQuietly(directory), "tidemark-run-directory");
    Runtime.getRuntime().addShutdownHook(onExit);
    return new RunDirectory(directory, onExit);
  }

  @Override
  public void close() {
    if (directory == null) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(onExit);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook deletes the directory too, and deleting twice is safe.
    }
    awaitClusterClosed(directory, CLUSTER_CLOSE_WAIT);
    deleteQuietly(directory);
  }

  /**
   * Returns once no jar of Flink's RPC system is left in {@code directory}, or once {@code wait}
   * has passed: a cluster that hangs as it closes does not keep the run from ending.
   */
  static void awaitClusterClosed(Path directory, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    while (holdsRpcSystemJar(directory) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static boolean holdsRpcSystemJar(Path directory) {
    if (!Files.exists(directory)) {
      return false;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      return paths.anyMatch(
          path -> {
            String name = path.getFileName().toString();
            return name.startsWith(RPC_SYSTEM_JAR) && name.endsWith(".jar");
          });
    } catch (IOException | UncheckedIOException e) {
      // A path went away under the walk: the cluster is still deleting; look again.
      return true;
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
