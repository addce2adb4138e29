package dev.tidemark.stack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command that runs a main class in a JVM of its own, with this JVM's Java and classpath. */
public final class ChildJvm {

  private ChildJvm() {}

  /** {@code java -cp <this classpath> ARGS}: JVM options, then a main class and its arguments. */
  public static List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.addAll(List.of(args));
    return command;
  }
}
