package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A steady-rate run's figures, from the rows a watcher saw and the job's CPU. */
class SteadyRunTest {

  /** 2023-11-14 22:13:21 UTC, the end of the first window. */
  private static final long END = 1_700_000_001_000L;

  private static final ThreadsCpu THREADS =
      new ThreadsCpu(100, 40, Map.of("C# CompilerThre", 40L, "Source: CountPe", 60L));

  @TempDir Path directory;

  private FinalRowWatcher watcher;

  /**
   * Three windows: the first's final row seen 2.1 s after its end, the second's after an EARLY row
   * and 2.3 s, the third's never (only an EARLY row).
   */
  @BeforeEach
  void threeWindows() throws Exception {
    Path rows = directory.resolve("rows.json");
    watcher = new FinalRowWatcher(rows);
    Files.writeString(rows, MetricsRows.row("22:13:21", "es_sink", "ON_TIME", true));
    watcher.look(END + 2_100);
    Files.writeString(
        rows,
        MetricsRows.row("22:13:22", "es_sink", "EARLY", false)
            + MetricsRows.row("22:13:22", "es_sink", "ON_TIME", true),
        StandardOpenOption.APPEND);
    watcher.look(END + 3_300);
    Files.writeString(
        rows, MetricsRows.row("22:13:23", "es_sink", "EARLY", false), StandardOpenOption.APPEND);
    watcher.look(END + 4_000);
  }

  @Test
  void latencyRowsPerWindowAndCpuOfTheWindowsInTheMeasuredPart() {
    SteadyRun run =
        SteadyRun.of(
            SteadyVariant.TIDEMARK,
            20_000,
            watcher,
            END,
            END + 2_000,
            2_000_000,
            12_000,
            THREADS,
            15,
            Optional.empty());

    assertThat(run.windows(), equalTo(3));
    assertThat(run.windowsWithoutFinal(), equalTo(1));
    assertThat(run.rowsPerWindow(), closeTo(4 / 3.0, 1e-9));
    assertThat(run.p50(), equalTo(2_100L));
    assertThat(run.p99(), equalTo(2_300L));
    assertThat(run.cpuSecondsPerMillion(), closeTo(6.0, 1e-9));
    assertThat(run.compilingSecondsPerMillion(), closeTo(2.4, 1e-9));
    assertThat(run.breakdown(), empty());
  }

  @Test
  void leavesOutTheWindowsOutsideTheMeasuredPart() {
    SteadyRun run =
        SteadyRun.of(
            SteadyVariant.TIDEMARK,
            20_000,
            watcher,
            END + 1_000,
            END + 1_000,
            1_000_000,
            6_000,
            THREADS,
            15,
            Optional.empty());

    assertThat(run.windows(), equalTo(1));
    assertThat(run.p50(), equalTo(2_300L));
    assertThat(run.rowsPerWindow(), closeTo(2.0, 1e-9));
  }

  @Test
  void aBreakdownGoesUnderTheRunsLine() {
    SteadyRun run =
        SteadyRun.of(
            SteadyVariant.NATIVE_FLINK,
            20_000,
            watcher,
            END,
            END + 2_000,
            1_000_000,
            6_000,
            THREADS,
            15,
            Optional.of(
                new CompilationsByLibrary(Map.of("Kafka client", Duration.ofMillis(1_500)))));

    assertThat(
        run.breakdown(),
        contains(
            "CPU s/1M by thread: Source: CountPe 3.60, C# CompilerThre 2.40",
            "JIT compile tasks begun in the measured part: 1.50 s; Kafka client 1.50 s (100 %)"));
    assertThat(run.lines().lines().count(), equalTo(3L));
  }
}
