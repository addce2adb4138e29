package dev.tidemark.pipelines.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The jar tidemark runs from, and what tells one build of it, run by one Java, from another: what
 * tidemark keeps beside its jar (the startup archive, saved query plans) is named after it, so a
 * rebuilt jar or another Java never uses what an earlier one left.
 */
final class RunningJar {

  private RunningJar() {}

  /** The jar tidemark's classes were loaded from, or null when they were not loaded from a file. */
  static @Nullable Path path() {
    try {
      Path location =
          Path.of(RunningJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return Files.isRegularFile(location) ? location.toAbsolutePath().normalize() : null;
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /** Eight hex digits of the jar's size and time and of the Java that runs this JVM. */
  static String identity(Path jar) {
    CRC32 identity = new CRC32();
    try {
      String of =
          Files.size(jar)
              + " "
              + Files.getLastModifiedTime(jar).toMillis()
              + " "
              + System.getProperty("java.home")
              + " "
              + System.getProperty("java.vm.version");
      identity.update(of.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      identity.update(jar.toString().getBytes(StandardCharsets.UTF_8));
    }
    return Long.toHexString(identity.getValue());
  }
}
