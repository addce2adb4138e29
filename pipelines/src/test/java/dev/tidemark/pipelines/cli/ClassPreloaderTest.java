package dev.tidemark.pipelines.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The list of classes the jar's main loads ahead of a run: each pipeline gets the classes all of
 * them load and its own, never another's, and every class the list names is one the jar has. When a
 * class is renamed or removed, this test fails until {@code pipelines/preload-classes.sh} writes
 * the list again.
 */
class ClassPreloaderTest {

  private static final String CALCITE_PLANNER =
      "org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.plan.volcano.VolcanoPlanner";

  @Test
  void eachPipelineGetsTheClassesAllLoadThenItsOwn() {
    List<String> metrics = ClassPreloader.classesOf("metrics");
    List<String> sql = ClassPreloader.classesOf("sql");

    assertThat(metrics.size(), greaterThan(5_000));
    assertThat(metrics, hasItem(Tidemark.class.getName()));
    assertThat(metrics, not(hasItem(CALCITE_PLANNER)));
    assertThat(sql, hasItem(CALCITE_PLANNER));
    assertThat(sql.subList(0, 100), equalTo(metrics.subList(0, 100)));
  }

  @Test
  void theArchiveOfTheJarGetsTheClassesOfEveryPipelineOnce() {
    List<String> every = ClassPreloader.classesOfEveryPipeline();

    for (String pipeline : List.of("count", "metrics", "join", "sql")) {
      assertThat(pipeline, every.containsAll(ClassPreloader.classesOf(pipeline)), equalTo(true));
    }
    assertThat(every.stream().distinct().count(), equalTo((long) every.size()));
  }

  /**
   * Read from the jar rather than the tests' class path, which leaves out what only the jar has:
   * Flink's RPC system ({@code runner.ClassPathRpcSystemLoader}).
   */
  @Test
  void everyClassTheListNamesIsOneTheJarHas() throws IOException {
    List<String> gone;
    try (ZipFile jar = new ZipFile(Path.of("target", "tidemark.jar").toFile())) {
      gone =
          Stream.of("count", "metrics", "join", "sql")
              .flatMap(pipeline -> ClassPreloader.classesOf(pipeline).stream())
              .distinct()
              .filter(name -> jar.getEntry(name.replace('.', '/') + ".class") == null)
              .limit(20)
              .toList();
    }

    assertThat(
        "classes the list names that the jar no longer has (run pipelines/preload-classes.sh"
            + " after mvn -q -DskipTests package)",
        gone,
        empty());
  }
}
