package dev.tidemark.benchmarks;

import dev.tidemark.pipelines.cli.ClassDataArchive;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The file benchmark's rounds ({@link Benchmark}): each variant run over the same file in a JVM of
 * its own, runs interleaved, after a short run that gives its fixed cost; then the table.
 */
final class FileRuns {

  private FileRuns() {}

  /**
   * Runs each of {@code variants} {@code runs} times over {@code input}, interleaved, and prints
   * the table; {@code database} is the server of the variant that writes a table, if it runs.
   */
  static void compare(
      Set<Variant> variants,
      BenchmarkDatabase database,
      Path directory,
      Path input,
      Path startupInput,
      long lines,
      int runs,
      int parallelism,
      String heap,
      String startupArchives,
      Query query)
      throws IOException, InterruptedException {
    Map<Variant, String> classPaths = new EnumMap<>(Variant.class);
    Map<Variant, List<String>> jvmOptions = new EnumMap<>(Variant.class);
    for (Variant variant : variants) {
      String classPath = variant.classPath(directory);
      classPaths.put(variant, classPath);
      List<String> options =
          new ArrayList<>(
              startupArchives.equals("all")
                      || (startupArchives.equals("tidemark") && variant.isTidemarks())
                  ? startupArchive(
                      variant, classPath, directory, startupInput, parallelism, heap, query)
                  : List.of());
      if (variant == Variant.TIDEMARK_TABLE) {
        options.addAll(database.jvmOptions());
      }
      jvmOptions.put(variant, options);
    }
    Map<Variant, List<Result>> results = new EnumMap<>(Variant.class);
    Map<Variant, List<Result>> startups = new EnumMap<>(Variant.class);
    for (int run = 1; run <= runs; run++) {
      for (Variant variant : variants) {
        ChildJvm child = new ChildJvm(classPaths.get(variant), jvmOptions.get(variant), heap);
        Result startup =
            runInChildJvm(
                variant, child, startupInput, Benchmark.STARTUP_LINES, parallelism, query);
        startups.computeIfAbsent(variant, v -> new ArrayList<>()).add(startup);
        Result result = runInChildJvm(variant, child, input, lines, parallelism, query);
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
    if (startupArchives.equals("all")) {
      System.out.printf(
          "%nEach variant with a class-data archive of its own (--startupArchives).%n");
    } else if (startupArchives.equals("tidemark")) {
      System.out.printf(
          "%ntidemark's variants with the archive the jar makes of itself (--startupArchives=tidemark).%n");
    }
    System.out.print(Table.of(results, startups, lines, parallelism));
  }

  /**
   * Writes {@code variant}'s class-data archive into {@code directory}, of the classes a short run
   * of it loads, and returns the JVM options of a run that must map it.
   */
  private static List<String> startupArchive(
      Variant variant,
      String classPath,
      Path directory,
      Path startupInput,
      int parallelism,
      String heap,
      Query query)
      throws IOException, InterruptedException {
    String name = "startup-" + variant.name().toLowerCase(Locale.ROOT);
    if (variant.isTidemarks()) {
      return TidemarkArchive.jvmOptions(classPath, directory, name);
    }
    System.err.printf("benchmark: writing a class-data archive for %s%n", variant.label());
    Path classList = directory.resolve(name + ".classes");
    Path archive = directory.resolve(name + ".jsa");
    Result training =
        runInChildJvm(
            variant,
            new ChildJvm(classPath, ClassDataArchive.listingClassesTo(classList), heap),
            startupInput,
            Benchmark.STARTUP_LINES,
            parallelism,
            query);
    if (!training.isValid()) {
      throw new IllegalStateException(variant + "'s training run did not count every line");
    }
    ClassDataArchive.write(classList, archive, classPath);
    return ClassDataArchive.requiring(archive);
  }

  private static Result runInChildJvm(
      Variant variant, ChildJvm child, Path input, long lines, int parallelism, Query query)
      throws IOException, InterruptedException {
    List<String> output =
        child.run(
            RunOne.class,
            variant.name(),
            input.toString(),
            Long.toString(lines),
            Integer.toString(parallelism),
            query.name());
    Result result = Benchmark.resultIn(variant, output);
    for (String line : output) {
      if (line.startsWith(TidemarkTableRun.ROWS)) {
        long rows = Long.parseLong(line.substring(TidemarkTableRun.ROWS.length()).trim());
        System.err.printf(
            Locale.ROOT,
            "benchmark: %,d lines: %,d rows in the table, %,.0f rows/s of the run's time%n",
            lines,
            rows,
            rows * 1000.0 / result.millis());
      }
    }
    return result;
  }
}
