package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.config.ConfigurationException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * {@code startup-archive}: writes a class-data archive of the jar it runs from ({@link
 * ClassDataArchive}), of the classes the JDK archives by default and those the jar's pipelines load
 * ({@link ClassPreloader}'s list). By default it writes the archive that {@code java -jar
 * tidemark.jar} makes in the background after its first run and uses by itself ({@link
 * AutomaticStartupArchive}), and deletes the older ones of rebuilt jars; with {@code --archive},
 * one that a run maps with {@code -XX:SharedArchiveFile}.
 */
public final class StartupArchive {

  /** The command's name on the command line. */
  static final String COMMAND = "startup-archive";

  /** The options of {@code startup-archive}. */
  public interface Options extends PipelineOptions {
    @Description(
        "Where to write the archive; by default beside the jar, where java -jar tidemark.jar finds"
            + " it by itself")
    String getArchive();

    void setArchive(String value);
  }

  private StartupArchive() {}

  /** Writes the archive, says how it is used; returns the exit code. */
  static int run(Options options, PrintStream out, PrintStream err) {
    Path jar = RunningJar.path();
    if (jar == null) {
      throw new ConfigurationException(
          "startup-archive archives the jar it runs from: java -jar tidemark.jar startup-archive");
    }
    Path automatic = AutomaticStartupArchive.of(jar);
    Path archive =
        options.getArchive() == null ? automatic : Path.of(options.getArchive()).toAbsolutePath();
    if (!Files.isDirectory(archive.getParent())) {
      throw new ConfigurationException("--archive: " + archive.getParent() + " is not a directory");
    }
    try {
      ClassDataArchive.writeForJar(jar, archive);
    } catch (IllegalStateException | UncheckedIOException e) {
      err.println("tidemark: startup-archive: " + e.getMessage());
      return Tidemark.FAILED;
    } finally {
      releaseTheMaking(archive);
    }
    out.println("tidemark: wrote " + archive);
    if (archive.equals(automatic)) {
      deleteOlderArchives(automatic);
      out.println("java -jar " + jar + " starts every run of a pipeline with it by itself");
    } else {
      out.println("start a run with it, e.g.:");
      out.println("  java -XX:SharedArchiveFile=" + archive + " -jar " + jar + " metrics");
      out.println(
          "make it again after rebuilding the jar or changing Java: the JVM ignores an archive"
              + " that does not match them, and the run starts as it would without it");
    }
    return 0;
  }

  /** The file that marks {@code archive} as being made by a run in the background. */
  static Path makingMarker(Path archive) {
    return archive.resolveSibling(archive.getFileName() + ".making");
  }

  /** Removes the mark that {@code archive} is being made. */
  static void releaseTheMaking(Path archive) {
    makingMarker(archive).toFile().delete();
  }

  /** Deletes the automatic archives beside {@code current} of earlier builds of the jar or Java. */
  private static void deleteOlderArchives(Path current) {
    try (DirectoryStream<Path> archives =
        Files.newDirectoryStream(
            current.getParent(),
            AutomaticStartupArchive.ARCHIVE_PREFIX
                + "*"
                + AutomaticStartupArchive.ARCHIVE_SUFFIX)) {
      for (Path older : archives) {
        if (!older.equals(current)) {
          Files.deleteIfExists(older);
        }
      }
    } catch (IOException e) {
      // Left for the next archive made here.
    }
  }
}
