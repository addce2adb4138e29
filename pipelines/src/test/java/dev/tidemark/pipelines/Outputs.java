package dev.tidemark.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads back the JSON lines a run wrote to a file sink. */
final class Outputs {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Outputs() {}

  static List<JsonNode> read(Path file) throws IOException {
    List<JsonNode> nodes = new ArrayList<>();
    if (!Files.exists(file)) {
      return nodes;
    }
    for (String line : Files.readAllLines(file)) {
      nodes.add(JSON.readTree(line));
    }
    return nodes;
  }
}
