package dev.tidemark.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The code an example test shares with the library guide, {@code docs/library.md}: the lines of the
 * test between two marker lines, as the guide shows them.
 */
final class GuideBlocks {

  private GuideBlocks() {}

  /** The library guide's text. */
  static String guide() throws IOException {
    return Files.readString(Path.of("../docs/library.md"));
  }

  /**
   * The lines of the example test {@code testClass} between the lines {@code // START} and {@code
   * // END}, without their common indentation.
   */
  static String between(Class<?> testClass, String start, String end) throws IOException {
    String text =
        Files.readString(
            Path.of("src/test/java/dev/tidemark/examples/" + testClass.getSimpleName() + ".java"));
    String block =
        text.substring(text.indexOf("// " + start) + start.length() + 3, text.indexOf("// " + end));
    return block.stripIndent().strip();
  }
}
