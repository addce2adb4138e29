package dev.tidemark.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.pipelines.cli.Tidemark;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * tidemark's {@code metrics} over a long recording whose keys keep changing, with the heap measured
 * after a full GC at several points of the way: what {@link Benchmark --memory} starts in a JVM of
 * its own. State must follow the windows open at one time, not the length of the recording, so the
 * heap late in the run must be about what it was early.
 *
 * <p>How far the run is comes from its results, which it writes as windows close: the newest window
 * end written, against the recording's span of event time (one line per millisecond). Prints one
 * {@code MEMORY fraction heapBytes} line per point.
 */
public final class MemoryRun {

  /** The points of the way at which the heap is measured. */
  static final List<Double> POINTS = List.of(0.1, 0.3, 0.5, 0.7, 0.9);

  private static final ObjectMapper JSON = new ObjectMapper();

  private MemoryRun() {}

  /** {@code FILE LINES PARALLELISM QUERY}: the query's windows ({@link Query#metricsWindows}). */
  public static void main(String[] args) throws Exception {
    Path input = Path.of(args[0]);
    long lines = Long.parseLong(args[1]);
    long firstEventTime;
    try (BufferedReader in = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
      firstEventTime = JSON.readTree(in.readLine()).get("t").asLong();
    }
    Path rows = Files.createTempFile("tidemark-memory-rows", ".json");
    AtomicInteger exitCode = new AtomicInteger(-1);
    Thread job =
        new Thread(
            () ->
                exitCode.set(
                    Tidemark.run(
                        Stream.concat(
                                Stream.of(
                                    "metrics",
                                    "--source=file:" + input,
                                    "--sink=file:" + rows,
                                    "--parallelism=" + args[2]),
                                Query.valueOf(args[3]).metricsWindows().stream())
                            .toArray(String[]::new),
                        new PrintStream(PrintStream.nullOutputStream()),
                        System.err)),
            "tidemark-memory-run");
    job.start();
    try (BufferedReader results = Files.newBufferedReader(rows, StandardCharsets.UTF_8)) {
      long newestWindowEnd = firstEventTime;
      for (double point : POINTS) {
        while (job.isAlive() && (newestWindowEnd - firstEventTime) < point * lines) {
          String row = results.readLine();
          if (row == null) {
            Thread.sleep(50);
          } else {
            newestWindowEnd = Math.max(newestWindowEnd, windowEndOrNone(row));
          }
        }
        if (!job.isAlive()) {
          throw new IllegalStateException("the run ended before " + point + " of the way");
        }
        System.gc();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf(Locale.ROOT, "MEMORY %.2f %d%n", point, heap);
      }
    }
    job.join();
    Files.deleteIfExists(rows);
    if (exitCode.get() != 0) {
      throw new IllegalStateException("metrics exited " + exitCode.get());
    }
    System.exit(0);
  }

  /** The window end in a row; {@code Long.MIN_VALUE} for a piece of a row still being written. */
  private static long windowEndOrNone(String row) {
    try {
      return LocalDateTime.parse(
              JSON.readTree(row).get("event_time_log").asText(), FinalRows.WINDOW_END)
          .toInstant(ZoneOffset.UTC)
          .toEpochMilli();
    } catch (IOException | RuntimeException e) {
      return Long.MIN_VALUE;
    }
  }
}
