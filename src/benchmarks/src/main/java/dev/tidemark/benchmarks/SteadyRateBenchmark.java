package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Final rows at a steady load: how long after a window's end its final row reaches the output, as a
 * live service sees it. tidemark's {@code metrics} and the same job hand-written on Flink read a
 * topic that a producer writes at a fixed rate, each in a JVM of its own, runs interleaved.
 *
 * <pre>{@code
 * java -jar src/benchmarks/target/tidemark-benchmarks.jar --source=steady --rates=20000 --seconds=60 --runs=2
 * }</pre>
 *
 * <p>It starts its own broker on loopback. For each rate, run and variant: a new 2-partition topic,
 * the job started on it from the earliest offset ({@link SteadyJob}), then {@link SteadyProducer}
 * at the rate for the given seconds, while {@link FinalRowWatcher} reads the job's rows file every
 * 50 ms. Before the first run the producer writes at the first rate for {@link #WARMUP} into a
 * topic no job reads. The first {@link #WARMUP} of each run are left out (the job starting, the
 * JIT), and so are the windows that end in the last 3 s. Per run ({@link SteadyRun}) it prints the
 * final rows' latency (p50, p95, p99 of the time the final row was first seen minus the window's
 * end), rows per window, the job JVM's CPU per million records produced after the warm-up and how
 * much of it its JIT compiler threads used ({@link ThreadsCpu}), how far the producer fell behind
 * its rate (a machine too busy for it gives the job gaps, not the rate), and how much later the
 * last third's median latency is than the first third's: a job that keeps up stays near 0, one that
 * falls behind grows with the run. Run it alone on the machine.
 *
 * <p>{@code --profile} has each job's JVM record a JFR file beside its rows file, with Java's
 * {@code profile} settings, or those of the {@code .jfc} file given ({@code --profile=FILE}), for a
 * finer sampling period than their 10 ms. {@code --breakdown} prints under each run where the job's
 * CPU went in the measured part: by thread ({@link ThreadsCpu}), and the JIT's compile tasks by the
 * library of the code they compiled, from a JFR recording of the job's compilations ({@link
 * CompilationsByLibrary}).
 */
final class SteadyRateBenchmark {

  /** The start of each run that is not measured. */
  static final Duration WARMUP = Duration.ofSeconds(15);

  private static final Duration LAST_WINDOWS_LEFT_OUT = Duration.ofSeconds(3);

  private SteadyRateBenchmark() {}

  static void run(
      List<Long> rates,
      Duration length,
      int runs,
      Set<SteadyVariant> variants,
      int parallelism,
      String heap,
      String profile,
      boolean breakdown,
      Path directory)
      throws Exception {
    Files.createDirectories(directory);
    Optional<Path> compilationSettings = Optional.empty();
    if (breakdown) {
      compilationSettings =
          Optional.of(
              Files.writeString(
                  directory.resolve("compilations.jfc"), CompilationsByLibrary.SETTINGS));
    }
    List<SteadyRun> all = new ArrayList<>();
    try (LoopbackBroker broker = LoopbackBroker.start()) {
      warmUp(broker.bootstrapServers(), rates.get(0));
      for (long rate : rates) {
        for (int run = 1; run <= runs; run++) {
          for (SteadyVariant variant : variants) {
            String topic =
                "steady-" + variant.name().toLowerCase(Locale.ROOT) + "-" + rate + "-" + run;
            SteadyRun result =
                runOnce(
                    broker.bootstrapServers(),
                    topic,
                    variant,
                    rate,
                    length,
                    parallelism,
                    heap,
                    new JvmRecordings(Optional.ofNullable(profile), compilationSettings),
                    directory);
            System.err.println("benchmark: " + result.lines());
            all.add(result);
          }
        }
      }
    }
    for (SteadyRun result : all) {
      System.out.println(result.lines());
    }
  }

  /**
   * Produces at {@code rate} for {@link #WARMUP} into a topic no job reads: the producer's code and
   * the broker's are compiled before the first measured run, which would otherwise share the
   * machine with their compiling and, at 200,000 records/s and more, get its records in bursts.
   */
  private static void warmUp(String bootstrapServers, long rate) throws Exception {
    createTopic(bootstrapServers, "steady-warmup");
    try (SteadyProducer producer = new SteadyProducer(bootstrapServers, "steady-warmup")) {
      producer.sendUntil(rate, System.currentTimeMillis() + WARMUP.toMillis(), sent -> {});
      System.err.printf(
          Locale.ROOT,
          "benchmark: warm-up at %,d/s, producer behind its rate by up to %,d ms%n",
          rate,
          producer.mostBehindMillis());
    }
  }

  private static void createTopic(String bootstrapServers, String topic) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      admin
          .createTopics(List.of(new NewTopic(topic, 2, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  private static SteadyRun runOnce(
      String bootstrapServers,
      String topic,
      SteadyVariant variant,
      long rate,
      Duration length,
      int parallelism,
      String heap,
      JvmRecordings recordings,
      Path directory)
      throws Exception {
    createTopic(bootstrapServers, topic);
    Path rows = directory.resolve(topic + ".json");
    Files.deleteIfExists(rows);
    Process job =
        start(
            variant,
            bootstrapServers,
            topic,
            rows,
            parallelism,
            heap,
            recordings.jvmOptions(directory, topic),
            directory);
    FinalRowWatcher watcher = new FinalRowWatcher(rows);
    ScheduledExecutorService looks = Executors.newSingleThreadScheduledExecutor();
    looks.scheduleAtFixedRate(
        () -> {
          try {
            watcher.look(System.currentTimeMillis());
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        },
        50,
        50,
        TimeUnit.MILLISECONDS);
    long start = System.currentTimeMillis();
    long end = start + length.toMillis();
    long measuredFrom = start + WARMUP.toMillis();
    AtomicLong sentAtWarmup = new AtomicLong(-1);
    AtomicLong cpuAtWarmup = new AtomicLong();
    AtomicLong cpuReadAtWarmup = new AtomicLong();
    AtomicReference<ThreadsCpu> threadsAtWarmup = new AtomicReference<>(ThreadsCpu.NONE);
    long sent;
    long cpuAtEnd;
    long cpuReadAtEnd;
    ThreadsCpu threads;
    long producerBehind;
    try (SteadyProducer producer = new SteadyProducer(bootstrapServers, topic)) {
      producer.sendUntil(
          rate,
          end,
          sentSoFar -> {
            if (sentAtWarmup.get() < 0 && System.currentTimeMillis() >= measuredFrom) {
              sentAtWarmup.set(sentSoFar);
              cpuReadAtWarmup.set(System.currentTimeMillis());
              cpuAtWarmup.set(cpuMillis(job));
              threadsAtWarmup.set(ThreadsCpu.of(job.pid()));
            }
          });
      sent = producer.sent();
      cpuReadAtEnd = System.currentTimeMillis();
      cpuAtEnd = cpuMillis(job);
      threads = ThreadsCpu.of(job.pid()).minus(threadsAtWarmup.get());
      producerBehind = producer.mostBehindMillis();
    }
    long lastEnd = end - LAST_WINDOWS_LEFT_OUT.toMillis();
    // The last measured windows close 2 s of out-of-orderness after their end, and more if the
    // job is behind: wait for them, up to 30 s.
    long deadline = System.currentTimeMillis() + 30_000;
    while (System.currentTimeMillis() < deadline && !allFinal(watcher, measuredFrom, lastEnd)) {
      Thread.sleep(100);
    }
    looks.shutdown();
    looks.awaitTermination(5, TimeUnit.SECONDS);
    // Ended as a user ends it, so that a JFR recording is written out as the JVM exits.
    job.destroy();
    if (!job.waitFor(30, TimeUnit.SECONDS)) {
      job.destroyForcibly().waitFor();
    }
    return SteadyRun.of(
        variant,
        rate,
        watcher,
        measuredFrom,
        lastEnd,
        sent - sentAtWarmup.get(),
        cpuAtEnd - cpuAtWarmup.get(),
        threads,
        producerBehind,
        recordings.compilations(
            directory,
            topic,
            Instant.ofEpochMilli(cpuReadAtWarmup.get()),
            Instant.ofEpochMilli(cpuReadAtEnd)));
  }

  private static boolean allFinal(FinalRowWatcher watcher, long from, long to) {
    synchronized (watcher) {
      return watcher.windows().values().stream()
              .filter(w -> w.end >= from && w.end <= to)
              .allMatch(w -> w.finalSeenAt >= 0)
          && watcher.windows().values().stream().anyMatch(w -> w.end > to);
    }
  }

  private static long cpuMillis(Process job) {
    return job.toHandle().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
  }

  private static Process start(
      SteadyVariant variant,
      String bootstrapServers,
      String topic,
      Path rows,
      int parallelism,
      String heap,
      List<String> recordings,
      Path directory)
      throws IOException {
    Path temporary = Files.createTempDirectory(directory, "jvm");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(recordings);
    command.addAll(
        List.of(
            "-Xmx" + heap,
            "-Djava.io.tmpdir=" + temporary,
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "-cp",
            variant.classPath(directory),
            SteadyJob.class.getName(),
            variant.name(),
            bootstrapServers,
            topic,
            rows.toString(),
            Integer.toString(parallelism)));
    return new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(directory.resolve(topic + ".log").toFile())
        .start();
  }
}
