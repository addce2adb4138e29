package dev.tidemark.transforms.testing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The library, {@code tidemark-transforms}, brings neither Beam SQL nor Calcite to a user who never
 * writes SQL: they come with {@code tidemark-sql}. The tests' class path holds the compile class
 * path and the test dependencies, none of which brings them either, so a compile dependency that
 * does fails here.
 */
class NoSqlOnTheClassPathTest {

  private static final List<String> SQL_JARS =
      List.of("calcite", "beam-sdks-java-extensions-sql", "beam-vendor-calcite");

  @Test
  void noJarOfBeamSqlOrCalciteIsOnTheClassPath() {
    List<String> classPath =
        Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    assertThat(
        "the tests see the module's own classes on the class path they check",
        classPath.stream().map(entry -> entry.replace('\\', '/')).toList(),
        hasItem(endsWith("transforms/target/classes")));
    assertThat(
        classPath.stream()
            .filter(entry -> SQL_JARS.stream().anyMatch(new File(entry).getName()::contains))
            .toList(),
        empty());
  }

  @Test
  void beamSqlsEntryPointDoesNotLoad() {
    assertThat(
        getClass()
            .getClassLoader()
            .getResource("org/apache/beam/sdk/extensions/sql/SqlTransform.class"),
        nullValue());
  }
}
