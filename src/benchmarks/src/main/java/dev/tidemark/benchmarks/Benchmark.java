package dev.tidemark.benchmarks;

import dev.tidemark.pipelines.cli.ClassDataArchive;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Side by side: events per second of tidemark's {@code metrics}, the same job hand-written on Flink
 * DataStream, and plain Beam on the FlinkRunner, over one generated S5 file, each run in a JVM of
 * its own, runs interleaved so that machine noise falls on every variant alike.
 *
 * <pre>{@code
 * java -jar src/benchmarks/target/tidemark-benchmarks.jar --lines=4000000 --runs=5
 * }</pre>
 *
 * <p>With {@code --startupArchives=tidemark}, tidemark's variants run with the class-data archive
 * that the jar makes of itself after a first run ({@link ClassDataArchive#writeOfTheJarsClasses}),
 * on the variant's class path: as a user's every later run of the jar starts (but for the 0.2 s of
 * the JVM that starts the one that maps it, which is not in the run's time here). With {@code
 * --startupArchives}, every variant runs with one: the others' of the classes a short run of theirs
 * loads.
 *
 * <p>Prints min, median and max events/s per variant, and tidemark's ratio to the others by median
 * and in each round. Each run also does a short job of {@link #STARTUP_LINES} lines in a JVM of its
 * own: its time is the variant's fixed cost (building and translating the pipeline, starting the
 * embedded cluster, ending the job), and the rest of the long run's time gives the rate per record
 * once running. A run whose results do not count every line is void and left out (and says so). Run
 * it alone on the machine: no build, no test suite beside it.
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
    boolean memory = false;
    String startupArchives = "none";
    String profile = null;
    boolean breakdown = false;
    String source = "file";
    Query query = Query.S5;
    String variantNames = null;
    String rates = "20000";
    long seconds = 60;
    Path directory = Path.of(System.getProperty("java.io.tmpdir"), "tidemark-benchmarks");
    for (String arg : args) {
      String[] nameAndValue = arg.replaceFirst("^--", "").split("=", 2);
      switch (nameAndValue[0]) {
        case "lines" -> lines = Long.parseLong(nameAndValue[1]);
        case "runs" -> runs = Integer.parseInt(nameAndValue[1]);
        case "parallelism" -> parallelism = Integer.parseInt(nameAndValue[1]);
        case "heap" -> heap = nameAndValue[1];
        case "dir" -> directory = Path.of(nameAndValue[1]);
        case "memory" -> memory = true;
        case "startupArchives" ->
            startupArchives = nameAndValue.length == 1 ? "all" : nameAndValue[1];
        case "profile" -> profile = nameAndValue.length == 1 ? "profile" : nameAndValue[1];
        case "breakdown" -> breakdown = true;
        case "variants" -> variantNames = nameAndValue[1];
        case "source" -> source = nameAndValue[1];
        case "query" -> query = query(nameAndValue[1]);
        case "rates" -> rates = nameAndValue[1];
        case "seconds" -> seconds = Long.parseLong(nameAndValue[1]);
        default -> {
          System.err.println(
              "benchmark: --"
                  + nameAndValue[0]
                  + " is not an option; use --lines=N, --runs=N,"
                  + " --parallelism=N, --heap=2g, --dir=PATH, --variants=tidemark,sql,table,native,flinksql,beam,"
                  + " --source=file|kafka|steady, --query=s5|hop|session (file, memory), --rates=N,N,"
                  + " --seconds=N,"
                  + " --profile[=SETTINGS.jfc] and --breakdown (steady),"
                  + " --startupArchives[=tidemark] or --memory");
          System.exit(2);
        }
      }
    }
    if (!Set.of("none", "all", "tidemark").contains(startupArchives)) {
      System.err.println(
          "benchmark: --startupArchives gives every variant an archive, --startupArchives=tidemark"
              + " only tidemark's, not '"
              + startupArchives
              + "'");
      System.exit(2);
    }
    if (memory) {
      memoryRun(directory, lines * 10, parallelism, heap, query);
      return;
    }
    if (source.equals("steady")) {
      SteadyRateBenchmark.run(
          Arrays.stream(rates.split(",")).map(rate -> Long.parseLong(rate.trim())).toList(),
          java.time.Duration.ofSeconds(seconds),
          runs,
          VariantNames.parse(
              SteadyVariant.class,
              SteadyVariant::option,
              variantNames,
              "--source=steady compares tidemark, tidemark-final and native"),
          parallelism,
          heap,
          profile,
          breakdown,
          directory);
      return;
    }
    if (source.equals("kafka")) {
      requireMoreThan(KafkaBenchmark.STARTUP_RECORDS, lines);
      KafkaBenchmark.run(
          InputFile.ensure(directory, lines),
          InputFile.ensure(directory, KafkaBenchmark.STARTUP_RECORDS),
          directory,
          KafkaBenchmark.variants(variantNames),
          runs,
          parallelism,
          heap,
          !startupArchives.equals("none"));
      return;
    }
    if (!source.equals("file")) {
      System.err.println("benchmark: --source takes file or kafka, not '" + source + "'");
      System.exit(2);
    }
    Set<Variant> variants = variants(variantNames, query);
    requireMoreThan(STARTUP_LINES, lines);
    System.err.printf("benchmark: generating %,d S5 lines in %s (once)%n", lines, directory);
    Path input = InputFile.ensure(directory, lines);
    Path startupInput = InputFile.ensure(directory, STARTUP_LINES);

    try (BenchmarkDatabase database =
        variants.contains(Variant.TIDEMARK_TABLE) ? BenchmarkDatabase.start() : null) {
      FileRuns.compare(
          variants,
          database,
          directory,
          input,
          startupInput,
          lines,
          runs,
          parallelism,
          heap,
          startupArchives,
          query);
    }
  }

  /** Exits unless {@code lines} are more than the {@code startupLines} of the short runs. */
  private static void requireMoreThan(long startupLines, long lines) {
    if (lines <= startupLines) {
      // The rate once running is what the long run adds to the short one: there must be more.
      System.err.printf(
          "benchmark: --lines=%d: give more than %,d, the lines of the short run that measures"
              + " each variant's fixed cost%n",
          lines, startupLines);
      System.exit(2);
    }
  }

  /**
   * The variants named in {@code --variants=tidemark,sql,table,native,flinksql,beam}: tidemark and
   * any of the others, so that a long input can be compared with native Flink without plain Beam's
   * slow runs.
   */
  private static Set<Variant> variants(String names, Query query) {
    Set<Variant> variants =
        VariantNames.parse(
            Variant.class,
            Variant::option,
            names,
            "--variants takes tidemark, sql, table, native, flinksql and beam");
    if (!variants.contains(Variant.TIDEMARK)) {
      System.err.println(
          "benchmark: --variants must include tidemark, the one the others are compared with");
      System.exit(2);
    }
    for (Variant variant : variants) {
      if (!variant.runs(query)) {
        System.err.println(
            "benchmark: --query="
                + query.name().toLowerCase(Locale.ROOT)
                + " runs on tidemark, sql and flinksql; "
                + variant.option()
                + " runs S5's query only");
        System.exit(2);
      }
    }
    return variants;
  }

  /** {@code --query}'s value: s5 or hop. */
  private static Query query(String name) {
    try {
      return Query.valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      System.err.println("benchmark: --query takes s5, hop or session, not '" + name + "'");
      System.exit(2);
      throw e;
    }
  }

  /**
   * tidemark's {@code metrics} over {@code lines} lines whose keys keep changing ({@link
   * MemoryRun}), in a JVM of its own; prints the heap after a full GC at each point of the way.
   */
  private static void memoryRun(
      Path directory, long lines, int parallelism, String heap, Query query)
      throws IOException, InterruptedException {
    System.err.printf(
        "benchmark: generating %,d S5 lines with changing keys in %s (once)%n", lines, directory);
    Path input = InputFile.ensureWithChangingKeys(directory, lines);
    List<String> output =
        new ChildJvm(ChildClassPath.ofTidemark(directory), List.of(), heap)
            .run(
                MemoryRun.class,
                input.toString(),
                Long.toString(lines),
                "" + parallelism,
                query.name());
    StringBuilder table =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%n%,d lines, keys replaced every 10,000 lines, parallelism %d, -Xmx%s, %s%n%n"
                    + "| point of the way | heap after a full GC |%n|---|---|%n",
                lines,
                parallelism,
                heap,
                query.name().toLowerCase(Locale.ROOT)));
    List<Long> heaps = new ArrayList<>();
    for (String line : output) {
      if (line.startsWith("MEMORY ")) {
        String[] fields = line.split(" ");
        heaps.add(Long.parseLong(fields[2]));
        table.append(
            String.format(
                Locale.ROOT,
                "| %.0f %% | %,.1f MB |%n",
                Double.parseDouble(fields[1]) * 100,
                Long.parseLong(fields[2]) / 1e6));
      }
    }
    if (heaps.size() != MemoryRun.POINTS.size()) {
      throw new IllegalStateException("the memory run did not reach every point: " + output);
    }
    table.append(
        String.format(
            Locale.ROOT,
            "%nheap at %.0f %% / heap at %.0f %%: %.2f%n",
            MemoryRun.POINTS.get(MemoryRun.POINTS.size() - 1) * 100,
            MemoryRun.POINTS.get(0) * 100,
            (double) heaps.get(heaps.size() - 1) / heaps.get(0)));
    System.out.print(table);
  }

  /** The result that a child JVM running {@code variant} printed. */
  static Result resultIn(Object variant, List<String> output) {
    Result result = null;
    for (String line : output) {
      Result parsed = Result.parse(line);
      if (parsed != null) {
        result = parsed;
      }
    }
    if (result == null) {
      throw new IllegalStateException(variant + " printed no result: " + output);
    }
    return result;
  }
}
