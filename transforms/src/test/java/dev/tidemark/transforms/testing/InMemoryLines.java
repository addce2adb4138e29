package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.io.RecordedLines;
import java.util.Iterator;
import java.util.List;

/** A recording held in memory, for tests that write their lines out one by one. */
public record InMemoryLines(List<String> lines) implements RecordedLines {

  public InMemoryLines {
    lines = List.copyOf(lines);
  }

  @Override
  public Iterator<String> open() {
    return lines.iterator();
  }

  @Override
  public String describe() {
    return lines.size() + " lines";
  }
}
