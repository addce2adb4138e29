package dev.tidemark.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.io.MoreFiles;

/**
 * A JVM of its own for one run: its class path ({@link ChildClassPath}), the JVM options of its
 * variant (a class-data archive, or none) and its heap.
 */
record ChildJvm(String classPath, List<String> jvmOptions, String heap) {

  /**
   * Runs {@code main} of {@code mainClass} in a new JVM, and returns what it printed. The JVM's
   * temporary directory is one of its own, deleted when it exits: a Flink job that the JVM ends as
   * soon as it is done leaves the 22 MB RPC jar its MiniCluster unpacks there behind.
   */
  List<String> run(Class<?> mainClass, String... args) throws IOException, InterruptedException {
    Path temporary = Files.createTempDirectory("tidemark-benchmark-run");
    try {
      return run(temporary, mainClass, args);
    } finally {
      MoreFiles.deleteRecursively(temporary);
    }
  }

  private List<String> run(Path temporary, Class<?> mainClass, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-Xmx" + heap);
    command.add("-Djava.io.tmpdir=" + temporary);
    // What Flink's own scripts pass on Java 17 (Kryo reflects into java.util); every variant gets
    // the same flags.
    command.add("--add-opens=java.base/java.util=ALL-UNNAMED");
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    List<String> output = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        output.add(line);
      }
    }
    int exitCode = process.waitFor();
    if (exitCode != 0) {
      output.add("(exit code " + exitCode + ")");
    }
    return output;
  }
}
