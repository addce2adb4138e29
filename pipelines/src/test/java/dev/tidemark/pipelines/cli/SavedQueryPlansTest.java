package dev.tidemark.pipelines.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.sameInstance;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.sql.SqlTable;
import dev.tidemark.sql.WindowedQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sql}'s plans saved beside the jar: a later run reads the plan an earlier one saved for the
 * same inputs, and plans anew for other inputs, a damaged plan, or a rebuilt jar.
 */
class SavedQueryPlansTest {

  private static final String QUERY =
      "SELECT host, TUMBLE_START(rowtime, INTERVAL '10' SECOND) AS ws, SUM(bytes) AS total"
          + " FROM requests GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), host";

  private static final String INPUTS = "query " + QUERY;

  private static WindowedQuery planned;

  @TempDir Path directory;

  private Path jar;

  private final AtomicInteger plannings = new AtomicInteger();

  @BeforeAll
  static void plan() throws Exception {
    planned =
        WindowedQuery.plan(
            SqlTable.of("requests", "t BIGINT, host VARCHAR, `bytes` BIGINT", "t"), QUERY);
  }

  @BeforeEach
  void aJar() throws IOException {
    jar = Files.write(directory.resolve("tidemark.jar"), new byte[] {1, 2, 3});
  }

  @Test
  void aPlanSavedByOneRunIsReadByTheNext() {
    SavedQueryPlans first = SavedQueryPlans.besideJar(jar);
    assertThat(first.plan(INPUTS, planner()), sameInstance(planned));
    first.save();

    WindowedQuery read = SavedQueryPlans.besideJar(jar).plan(INPUTS, planner());

    assertThat("plannings", plannings.get(), equalTo(1));
    assertThat(read, not(sameInstance(planned)));
    assertThat(read.resultNames(), equalTo(List.of("host", "ws", "total")));
    assertThat(read.keyNames(), equalTo(planned.keyNames()));
    assertThat(read.windows().kind(), equalTo(planned.windows().kind()));
  }

  @Test
  void nothingIsWrittenUntilSaved() throws IOException {
    SavedQueryPlans.besideJar(jar).plan(INPUTS, planner());

    assertThat(plansBeside(jar), empty());
  }

  @Test
  void otherInputsArePlannedAnew() {
    SavedQueryPlans first = SavedQueryPlans.besideJar(jar);
    first.plan(INPUTS, planner());
    first.save();

    SavedQueryPlans.besideJar(jar).plan(INPUTS.replace("host", "status"), planner());

    assertThat("plannings", plannings.get(), equalTo(2));
  }

  @Test
  void aQueryThatDoesNotPlanIsNeverSaved() throws IOException {
    SavedQueryPlans plans = SavedQueryPlans.besideJar(jar);
    assertThrows(
        ConfigurationException.class,
        () ->
            plans.plan(
                INPUTS,
                () -> {
                  throw new ConfigurationException("--query: no such column");
                }));
    plans.save();

    assertThat(plansBeside(jar), empty());
  }

  @Test
  void aDamagedPlanIsPlannedAgainAndSavedOver() throws IOException {
    SavedQueryPlans first = SavedQueryPlans.besideJar(jar);
    first.plan(INPUTS, planner());
    first.save();
    Path plan = plansBeside(jar).get(0);
    byte[] whole = Files.readAllBytes(plan);
    Files.write(plan, Arrays.copyOf(whole, whole.length / 2));

    SavedQueryPlans second = SavedQueryPlans.besideJar(jar);
    second.plan(INPUTS, planner());
    second.save();
    SavedQueryPlans.besideJar(jar).plan(INPUTS, planner());

    assertThat("plannings", plannings.get(), equalTo(2));
    assertThat(Files.readAllBytes(plan), equalTo(whole));
  }

  @Test
  void aRebuiltJarPlansAnewAndItsFirstSaveDeletesTheOldBuildsPlans() throws IOException {
    SavedQueryPlans first = SavedQueryPlans.besideJar(jar);
    first.plan(INPUTS, planner());
    first.save();
    List<Path> before = buildsBeside(jar);
    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plus(1, ChronoUnit.HOURS)));

    SavedQueryPlans rebuilt = SavedQueryPlans.besideJar(jar);
    rebuilt.plan(INPUTS, planner());
    rebuilt.save();

    assertThat("plannings", plannings.get(), equalTo(2));
    List<Path> after = buildsBeside(jar);
    assertThat(after.size(), equalTo(1));
    assertThat(after, not(equalTo(before)));
  }

  @Test
  void keepsThePlansSavedLast() throws IOException {
    SavedQueryPlans many = SavedQueryPlans.besideJar(jar);
    for (int n = 0; n < SavedQueryPlans.AT_MOST; n++) {
      many.plan(INPUTS + n, () -> planned);
    }
    many.save();
    FileTime yesterday = FileTime.from(Instant.now().minus(1, ChronoUnit.DAYS));
    for (Path old : plansBeside(jar)) {
      Files.setLastModifiedTime(old, yesterday);
    }

    SavedQueryPlans more = SavedQueryPlans.besideJar(jar);
    for (int n = 0; n < 3; n++) {
      more.plan(INPUTS + " more " + n, () -> planned);
    }
    more.save();

    List<Path> kept = plansBeside(jar);
    assertThat(kept.size(), equalTo(SavedQueryPlans.AT_MOST));
    List<FileTime> times = new ArrayList<>();
    for (Path plan : kept) {
      times.add(Files.getLastModifiedTime(plan));
    }
    assertThat(
        "the three saved last are kept",
        times.stream().filter(time -> !time.equals(yesterday)).count(),
        equalTo(3L));
    assertThat(times, hasItems(yesterday));
  }

  private Supplier<WindowedQuery> planner() {
    return () -> {
      plannings.incrementAndGet();
      return planned;
    };
  }

  private static List<Path> buildsBeside(Path jar) throws IOException {
    try (Stream<Path> files = Files.list(jar.getParent())) {
      return files
          .filter(
              file -> file.getFileName().toString().startsWith(SavedQueryPlans.DIRECTORY_PREFIX))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static List<Path> plansBeside(Path jar) throws IOException {
    List<Path> plans = new ArrayList<>();
    for (Path build : buildsBeside(jar)) {
      try (Stream<Path> files = Files.list(build)) {
        files.forEach(plans::add);
      }
    }
    return plans;
  }
}
