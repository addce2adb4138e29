package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.io.RecordedLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;

/** The lines of a sample bundled in tidemark.jar. */
public final class ResourceLines implements RecordedLines {

  private static final long serialVersionUID = 1L;

  private final String resource;

  ResourceLines(String resource) {
    this.resource = resource;
  }

  @Override
  public Iterator<String> open() throws IOException {
    try (InputStream in = ResourceLines.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("the bundled sample " + resource + " is missing from the jar");
      }
      List<String> lines =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList();
      return lines.iterator();
    }
  }

  @Override
  public String describe() {
    return "bundled sample " + resource;
  }
}
