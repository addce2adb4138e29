package dev.tidemark.transforms.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a local path or glob into the files it names, without walking a directory tree.
 *
 * <p>Written by hand because Beam's {@code LocalFileSystem} matches any spec, even a plain path
 * that does not exist, by walking every file under the spec's parent directory, following symbolic
 * links: {@code /no-such-file.csv} walks the whole disk, for minutes. Here a path without glob
 * characters is checked directly, and a glob in the last component is expanded by listing that one
 * directory. A spec with {@code **}, or with a glob in a directory component, asks for a walk, and
 * is left to Beam.
 */
final class LocalMatch {

  private LocalMatch() {}

  /** Whether {@code pattern} is a local path (no scheme, or {@code file://}). */
  static boolean isLocal(String pattern) {
    return !pattern.contains("://") || pattern.startsWith("file://");
  }

  /**
   * The files {@code pattern} names, as specs for Beam's {@code FileSystems.match}: none when
   * nothing matches; the pattern itself when it asks for a walk.
   */
  static List<String> expand(String pattern) throws IOException {
    String path = pattern.startsWith("file://") ? pattern.substring("file://".length()) : pattern;
    if (!hasGlob(path)) {
      return Files.isRegularFile(Paths.get(path)) ? List.of(path) : List.of();
    }
    Path glob = Paths.get(path);
    Path directory = glob.getParent() == null ? Paths.get(".") : glob.getParent();
    if (path.contains("**") || hasGlob(directory.toString())) {
      return List.of(pattern);
    }
    List<String> files = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return files;
    }
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(directory, glob.getFileName().toString())) {
      for (Path entry : entries) {
        if (Files.isRegularFile(entry)) {
          files.add(entry.toString());
        }
      }
    }
    return files;
  }

  private static boolean hasGlob(String path) {
    return path.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
  }
}
