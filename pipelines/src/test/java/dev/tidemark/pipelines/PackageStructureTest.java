package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The drawing of tidemark's packages and what each depends on, in {@code docs/how-it-works.md}, is
 * the code's: it is made here from the {@code import} lines of every main source, and must stand
 * there as made. When a package gains or loses a dependency, this test fails and prints the drawing
 * to paste. And the modules depend one way only: the library ({@code transforms}) on neither the
 * SQL module nor the pipelines, the SQL module ({@code sql}) not on the pipelines.
 */
class PackageStructureTest {

  private static final Path REPOSITORY = Path.of("..");
  private static final List<String> MODULES = List.of("transforms", "sql", "pipelines");
  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?dev\\.tidemark\\.((?:[a-z]+\\.)*[a-z]+)\\.[A-Z]");

  @Test
  void theReadmeDrawsThePackagesAsTheCodeHasThem() throws IOException {
    String drawing = drawing(dependencies());
    String page = Files.readString(REPOSITORY.resolve("docs/how-it-works.md"));

    assertThat(
        "docs/how-it-works.md's package drawing is out of date; paste this one:\n" + drawing,
        page,
        containsString("```\n" + drawing + "```\n"));
  }

  @Test
  void theModulesDependOneWayOnly() {
    List<String> wrong = new ArrayList<>();
    dependencies()
        .forEach(
            (from, to) ->
                to.stream()
                    .filter(target -> rank(target) > rank(from))
                    .forEach(target -> wrong.add(from + " -> " + target)));
    assertThat(wrong, empty());
  }

  /**
   * The module of {@code pkg}, in the order the modules may depend: a lower one never on a higher.
   */
  private static int rank(String pkg) {
    return MODULES.indexOf(
        pkg.substring(0, pkg.indexOf('.') < 0 ? pkg.length() : pkg.indexOf('.')));
  }

  /** Each package of the main code, and the other tidemark packages its sources import. */
  private static Map<String, Set<String>> dependencies() {
    Map<String, Set<String>> dependencies = new TreeMap<>();
    for (String module : MODULES) {
      Path root = REPOSITORY.resolve(module).resolve("src/main/java/dev/tidemark");
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
          String from = root.relativize(file.getParent()).toString().replace('/', '.');
          Set<String> to = dependencies.computeIfAbsent(from, name -> new TreeSet<>());
          for (String line : Files.readAllLines(file)) {
            Matcher imported = IMPORT.matcher(line);
            if (imported.find() && !imported.group(1).equals(from)) {
              to.add(imported.group(1));
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return dependencies;
  }

  /** One line per package: {@code from -> to, to}, aligned, or {@code from} alone. */
  private static String drawing(Map<String, Set<String>> dependencies) {
    int width = dependencies.keySet().stream().mapToInt(String::length).max().orElse(0);
    StringBuilder drawing = new StringBuilder();
    dependencies.forEach(
        (from, to) -> {
          drawing.append(from);
          if (!to.isEmpty()) {
            drawing.append(" ".repeat(width - from.length())).append(" -> ");
            drawing.append(String.join(", ", to));
          }
          drawing.append('\n');
        });
    return drawing.toString();
  }
}
