package dev.tidemark.pipelines.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The directory of one embedded run ({@link EmbeddedFlink}), owned by the run that made it: deleted
 * when the run ends ({@link #close}), or, if the JVM exits first however it exits, by a shutdown
 * hook of its own, which {@link #close} removes again. {@link #NONE} is a run that made none.
 */
public final class RunDirectory implements AutoCloseable {

  /**
   * A run without a directory of its own: a cluster's, the DirectRunner's, a user's configuration.
   */
  static final RunDirectory NONE = new RunDirectory(null, null);

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
    deleteQuietly(directory);
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
