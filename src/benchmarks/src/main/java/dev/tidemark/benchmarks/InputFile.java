package dev.tidemark.benchmarks;

import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.LineShape;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import org.joda.time.Duration;

/**
 * The benchmark's input, written once and reused: S5 records ({@code {"t","st","i","op","id"}}), 5
 * indexes x 2 ops, one record per millisecond of event time, each out of order by up to 1.5 s
 * (within every variant's 2 s bound, so no record is late and every count must add up to the number
 * of lines). The same number of lines gives the same file.
 */
final class InputFile {

  private InputFile() {}

  static Path ensure(Path directory, long lines) throws IOException {
    return ensure(directory.resolve("s5-" + lines + ".jsonl"), lines, LineShape.S5_STATS);
  }

  /**
   * The same records, except that every 10,000 lines (10 s of event time) each index is replaced by
   * a new one: keys that keep changing, as the memory run needs. Each window still has 5 x 2 keys,
   * plus those of the indexes being replaced, so results come at an even pace.
   */
  static Path ensureWithChangingKeys(Path directory, long lines) throws IOException {
    return ensure(
        directory.resolve("s5-changing-keys-" + lines + ".jsonl"),
        lines,
        (key, eventTime, sequence) ->
            LineShape.S5_STATS.line(key + "_" + sequence / 10_000, eventTime, sequence));
  }

  private static Path ensure(Path file, long lines, LineShape shape) throws IOException {
    if (Files.exists(file)) {
      return file;
    }
    Files.createDirectories(file.getParent());
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    Iterator<String> generated =
        GeneratedLines.records(lines)
            .withKeys(5)
            .withStep(Duration.millis(1))
            .withOutOfOrderness(Duration.millis(1500))
            .withShape(shape)
            .withSeed(2020)
            .open();
    try (BufferedWriter out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
      while (generated.hasNext()) {
        out.write(generated.next());
        out.write('\n');
      }
    }
    Files.move(partial, file);
    return file;
  }
}
