package dev.tidemark.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Side by side on a live topic: tidemark's {@code metrics} on Kafka and the same job hand-written
 * on Flink with its {@code KafkaSource}, each run in a JVM of its own, runs interleaved.
 *
 * <pre>{@code
 * java -jar src/benchmarks/target/tidemark-benchmarks.jar --source=kafka --lines=2000000 --runs=3
 * }</pre>
 *
 * <p>It starts its own broker on loopback ({@link LoopbackBroker}), fills a 2-partition topic with
 * the benchmark file's records once, before any run is timed ({@link S5Topic}), and times each run
 * from the first line that builds its job until its results are exact for every complete window
 * ({@link UntilExact}): a live job never ends by itself. Each run reads the whole topic from the
 * earliest offset with a consumer group of its own. Before each such run, the same variant reads a
 * second topic of {@link #STARTUP_RECORDS} records the same way: its time is the variant's fixed
 * cost (building and translating the job, starting embedded Flink, the first records through a cold
 * JVM), and the rest of the long run's time gives its rate once running. With {@code
 * --startupArchives=tidemark} (or {@code --startupArchives}), tidemark's variants map the archive
 * the jar makes of itself ({@link TidemarkArchive}). Prints the table of {@link LiveTable}.
 */
final class KafkaBenchmark {

  /** Records on the short topic whose time until exact is taken as a variant's fixed cost. */
  static final long STARTUP_RECORDS = 20_000;

  private KafkaBenchmark() {}

  static void run(
      Path input,
      Path startupInput,
      Path directory,
      Set<LiveVariant> variants,
      int runs,
      int parallelism,
      String heap,
      boolean tidemarkArchives)
      throws Exception {
    try (LoopbackBroker broker = LoopbackBroker.start()) {
      System.err.printf("benchmark: filling a topic with %s%n", input);
      S5Topic topic = S5Topic.fill(broker.bootstrapServers(), input, "s5");
      S5Topic startupTopic = S5Topic.fill(broker.bootstrapServers(), startupInput, "s5-short");
      System.err.printf(
          Locale.ROOT,
          "benchmark: %,d records on %d partitions; %,d of them in the windows that end by %d%n",
          topic.records(),
          S5Topic.PARTITIONS,
          topic.inCompleteWindows(),
          topic.completeUpTo());
      Map<LiveVariant, ChildJvm> children = new EnumMap<>(LiveVariant.class);
      for (LiveVariant variant : variants) {
        String classPath = variant.classPath(directory);
        List<String> jvmOptions =
            tidemarkArchives && variant.isTidemarks()
                ? TidemarkArchive.jvmOptions(
                    classPath, directory, "startup-live-" + variant.option())
                : List.of();
        children.put(variant, new ChildJvm(classPath, jvmOptions, heap));
      }
      Map<LiveVariant, List<Result>> results = new EnumMap<>(LiveVariant.class);
      Map<LiveVariant, List<Result>> startups = new EnumMap<>(LiveVariant.class);
      for (int run = 1; run <= runs; run++) {
        for (LiveVariant variant : variants) {
          startups
              .computeIfAbsent(variant, v -> new ArrayList<>())
              .add(runInChildJvm(variant, children.get(variant), startupTopic, parallelism));
          Result result = runInChildJvm(variant, children.get(variant), topic, parallelism);
          System.err.printf(
              Locale.ROOT,
              "benchmark: run %d/%d %-44s %6.1f s until exact, %6.1f CPU s%s%n",
              run,
              runs,
              variant.label(),
              result.millis() / 1000.0,
              result.cpuMillis() / 1000.0,
              result.isValid()
                  ? ""
                  : " VOID: results count " + result.counted() + " of " + result.lines());
          results.computeIfAbsent(variant, v -> new ArrayList<>()).add(result);
        }
      }
      System.out.print(LiveTable.of(results, startups, topic, parallelism));
    }
  }

  /** The variants named in {@code --variants=tidemark,sql,native,flinksql}; all when null. */
  static Set<LiveVariant> variants(String names) {
    return VariantNames.parse(
        LiveVariant.class,
        LiveVariant::option,
        names,
        "--source=kafka compares tidemark, sql, native and flinksql");
  }

  private static Result runInChildJvm(
      LiveVariant variant, ChildJvm child, S5Topic topic, int parallelism) throws Exception {
    List<String> args = new ArrayList<>(List.of(variant.name(), Integer.toString(parallelism)));
    args.addAll(topic.args());
    return Benchmark.resultIn(variant, child.run(RunOneLive.class, args.toArray(String[]::new)));
  }
}
