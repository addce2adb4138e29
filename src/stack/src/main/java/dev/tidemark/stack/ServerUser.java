package dev.tidemark.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The user a PostgreSQL server runs as when this JVM is root, which PostgreSQL refuses to be:
 * {@code nobody} (uid and gid 65534 on Debian), switched to with util-linux's {@code setpriv}.
 */
final class ServerUser {

  private static final int NOBODY = 65534;

  private ServerUser() {}

  /** Whether this JVM runs as root, so the server needs another user. */
  static boolean isNeeded() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** The words that run a command as {@code nobody}, without root's supplementary groups. */
  static List<String> switchTo() {
    return List.of(
        "setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--reset-env");
  }

  /** Gives {@code directory} to {@code nobody}, readable by that user alone. */
  static void own(Path directory) throws IOException {
    Files.setAttribute(directory, "unix:uid", NOBODY);
    Files.setAttribute(directory, "unix:gid", NOBODY);
    Files.setPosixFilePermissions(
        directory, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
  }
}
