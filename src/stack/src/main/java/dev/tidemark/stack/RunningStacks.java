package dev.tidemark.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The stacks running on this machine, so that a command given no {@code --dir} finds its stack only
 * when there is exactly one. {@code start} registers its directory (a file in {@code registry} that
 * names it), {@code stop} removes it; a stack whose nodes have all gone (a reboot, a kill) is no
 * longer running, and its entry is removed when it is next looked at.
 */
final class RunningStacks {

  /** The file in a stack's directory that holds its addresses and its nodes' process ids. */
  static final String STATE = "stack.properties";

  private final Path registry;

  RunningStacks(Path registry) {
    this.registry = registry;
  }

  /** The registry every stack command of this machine's user shares. */
  static RunningStacks ofThisMachine() {
    return new RunningStacks(Path.of(System.getProperty("java.io.tmpdir"), "tidemark-stacks"));
  }

  void register(Path directory) throws IOException {
    Files.createDirectories(registry);
    Files.writeString(entry(directory), directory.toAbsolutePath().normalize().toString());
  }

  void unregister(Path directory) throws IOException {
    Files.deleteIfExists(entry(directory));
  }

  /**
   * The directory of the one running stack.
   *
   * @throws IllegalArgumentException in one line when none is running, or several are (naming them,
   *     to be chosen with {@code --dir})
   */
  Path theOnlyOne() {
    List<Path> running = running();
    if (running.isEmpty()) {
      throw new IllegalArgumentException("no stack is running (stack start)");
    }
    if (running.size() > 1) {
      throw new IllegalArgumentException(
          running.size()
              + " stacks are running, in "
              + String.join(", ", running.stream().map(Path::toString).sorted().toList())
              + "; say which with --dir=DIR");
    }
    return running.get(0);
  }

  /** The directories of the stacks whose nodes are still running. */
  List<Path> running() {
    if (!Files.isDirectory(registry)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(registry)) {
      return entries
          .map(this::directoryOfLiveStack)
          .filter(directory -> directory != null)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The stack an entry names, if any of its nodes runs; else null, and the entry is removed. */
  private Path directoryOfLiveStack(Path entry) {
    try {
      Path directory = Path.of(Files.readString(entry, StandardCharsets.UTF_8).strip());
      if (anyNodeRuns(directory)) {
        return directory;
      }
      Files.deleteIfExists(entry);
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  private static boolean anyNodeRuns(Path directory) throws IOException {
    Path state = directory.resolve(STATE);
    if (!Files.exists(state)) {
      return false;
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(state)) {
      properties.load(in);
    }
    return Arrays.stream(properties.getProperty("pids", "").split(","))
        .filter(pid -> !pid.isBlank())
        .anyMatch(pid -> ProcessHandle.of(Long.parseLong(pid.strip())).isPresent());
  }

  /** The registry's file for {@code directory}: named by its absolute path, made a file name. */
  private Path entry(Path directory) {
    String name = directory.toAbsolutePath().normalize().toString().replaceAll("[^A-Za-z0-9]", "_");
    return registry.resolve(name);
  }
}
