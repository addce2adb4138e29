package dev.tidemark.pipelines.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file sink's appends ({@link FileAppends}): four threads appending bundles of long lines to
 * one file at once, as four tasks of a TaskManager do, and every line arrives whole and once. A
 * bundle is several times the 8 KiB pieces a stream writes in, so appends that were not each one
 * write would cut lines into each other.
 */
class FileAppendsTest {

  private static final int THREADS = 4;
  private static final int BUNDLES_PER_THREAD = 100;
  private static final int LINES_PER_BUNDLE = 30;

  @TempDir Path directory;

  @Test
  void bundlesAppendedByFourThreadsAtOnceArriveWholeAndOnce() throws Exception {
    Path file = directory.resolve("lines.json");
    List<String> expected = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> appending = new ArrayList<>();
      for (int thread = 0; thread < THREADS; thread++) {
        List<String> bundles = new ArrayList<>();
        for (int bundle = 0; bundle < BUNDLES_PER_THREAD; bundle++) {
          StringBuilder lines = new StringBuilder();
          for (int line = 0; line < LINES_PER_BUNDLE; line++) {
            String text = thread + "/" + bundle + "/" + line + ":" + "x".repeat(3_000 + line);
            expected.add(text);
            lines.append(text).append('\n');
          }
          bundles.add(lines.toString());
        }
        appending.add(threads.submit(() -> bundles.forEach(b -> FileAppends.append(file, b))));
      }
      for (Future<?> done : appending) {
        done.get();
      }
    } finally {
      threads.shutdownNow();
    }

    assertThat(
        Files.readAllLines(file, StandardCharsets.UTF_8).stream().sorted().toList(),
        equalTo(expected.stream().sorted().toList()));
  }
}
