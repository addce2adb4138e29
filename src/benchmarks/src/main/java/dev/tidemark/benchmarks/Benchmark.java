package dev.tidemark.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Side by side: events per second of tidemark's {@code metrics}, the same job hand-written on Flink
 * DataStream, and plain Beam on the FlinkRunner, over one generated S5 file, each run in a JVM of
 * its own, runs interleaved so that machine noise falls on every variant alike.
 *
 * <pre>{@code
 * java -jar src/benchmarks/target/tidemark-benchmarks.jar --lines=4000000 --runs=3
 * }</pre>
 *
 * <p>Prints min, median and max events/s per variant, and tidemark's ratio to the others by median.
 * Each run also does a short job of {@link #STARTUP_LINES} lines in a JVM of its own: its time is
 * the variant's fixed cost (building and translating the pipeline, starting the embedded cluster,
 * ending the job), and the rest of the long run's time gives the rate per record once running. A
 * run whose results do not count every line is void and left out (and says so). Run it alone on the
 * machine: no build, no test suite beside it.
 */
public final class Benchmark {

  /** Lines of the short job whose time is taken as a variant's fixed cost. */
  static final long STARTUP_LINES = 10_000;

  private Benchmark() {}

  public static void main(String[] args) throws Exception {
    long lines = 4_000_000;
    int runs = 3;
    int parallelism = 2;
    String heap = "2g";
    Path directory = Path.of(System.getProperty("java.io.tmpdir"), "tidemark-benchmarks");
    for (String arg : args) {
      String[] nameAndValue = arg.replaceFirst("^--", "").split("=", 2);
      switch (nameAndValue[0]) {
        case "lines" -> lines = Long.parseLong(nameAndValue[1]);
        case "runs" -> runs = Integer.parseInt(nameAndValue[1]);
        case "parallelism" -> parallelism = Integer.parseInt(nameAndValue[1]);
        case "heap" -> heap = nameAndValue[1];
        case "dir" -> directory = Path.of(nameAndValue[1]);
        default -> {
          System.err.println(
              "benchmark: --"
                  + nameAndValue[0]
                  + " is not an option; use --lines=N, --runs=N,"
                  + " --parallelism=N, --heap=2g or --dir=PATH");
          System.exit(2);
        }
      }
    }
    System.err.printf("benchmark: generating %,d S5 lines in %s (once)%n", lines, directory);
    Path input = InputFile.ensure(directory, lines);
    Path startupInput = InputFile.ensure(directory, STARTUP_LINES);

    Map<Variant, List<Result>> results = new EnumMap<>(Variant.class);
    Map<Variant, List<Result>> startups = new EnumMap<>(Variant.class);
    for (int run = 1; run <= runs; run++) {
      for (Variant variant : Variant.values()) {
        Result startup = runInChildJvm(variant, startupInput, STARTUP_LINES, parallelism, heap);
        startups.computeIfAbsent(variant, v -> new ArrayList<>()).add(startup);
        Result result = runInChildJvm(variant, input, lines, parallelism, heap);
        System.err.printf(
            Locale.ROOT,
            "benchmark: run %d/%d %-32s %,10.0f events/s%s%n",
            run,
            runs,
            variant.label(),
            result.eventsPerSecond(),
            result.isValid()
                ? ""
                : " VOID: results count " + result.counted() + " of " + lines + " lines");
        results.computeIfAbsent(variant, v -> new ArrayList<>()).add(result);
      }
    }
    System.out.print(Table.of(results, startups, lines, parallelism));
  }

  private static Result runInChildJvm(
      Variant variant, Path input, long lines, int parallelism, String heap)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                // What Flink's own scripts pass on Java 17 (Kryo reflects into java.util); every
                // variant gets the same flags.
                "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                RunOne.class.getName(),
                variant.name(),
                input.toString(),
                Long.toString(lines),
                Integer.toString(parallelism))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    Result result = null;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        Result parsed = Result.parse(line);
        if (parsed != null) {
          result = parsed;
        }
      }
    }
    int exitCode = process.waitFor();
    if (result == null) {
      throw new IllegalStateException(variant + " printed no result (exit code " + exitCode + ")");
    }
    return result;
  }
}
