package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.config.ConfigurationException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * {@code startup-archive}: writes a class-data archive of the jar it runs from ({@link
 * ClassDataArchive}), so that every later run that maps it starts sooner: {@code java
 * -XX:SharedArchiveFile=tidemark.jsa -jar tidemark.jar metrics ...} (the README's Performance
 * section says by how much).
 *
 * <p>The archive holds the classes that {@link #TRAINING} load, each run on its bundled sample on
 * an embedded cluster, in a JVM of its own. A JVM then writes the archive from their class lists,
 * and another checks that it maps. What a later run loads that they did not is read from the jar as
 * usual.
 */
public final class StartupArchive {

  /**
   * The pipelines whose runs decide what the archive holds: between them, the embedded cluster,
   * Beam's translation, a recording's replay and the SQL planner (Calcite's classes, most of what
   * {@code sql} loads before its job starts). A Kafka source, a socket or a cluster of the user's
   * loads classes of its own, read from the jar as before.
   */
  static final List<String> TRAINING = List.of("count", "metrics", "sql");

  /** The options of {@code startup-archive}. */
  public interface Options extends PipelineOptions {
    @Description("Where to write the archive; by default tidemark.jsa beside the jar")
    String getArchive();

    void setArchive(String value);
  }

  private StartupArchive() {}

  /** Writes the archive, says how to use it; returns the exit code. */
  static int run(Options options, PrintStream out, PrintStream err) {
    Path jar = runningJar();
    Path archive =
        options.getArchive() == null
            ? jar.resolveSibling("tidemark.jsa")
            : Path.of(options.getArchive()).toAbsolutePath();
    if (!Files.isDirectory(archive.getParent())) {
      throw new ConfigurationException("--archive: " + archive.getParent() + " is not a directory");
    }
    try {
      write(jar, archive);
    } catch (IllegalStateException | UncheckedIOException e) {
      err.println("tidemark: startup-archive: " + e.getMessage());
      return Tidemark.FAILED;
    }
    out.println("tidemark: wrote " + archive);
    out.println("start a run with it, e.g.:");
    out.println("  java -XX:SharedArchiveFile=" + archive + " -jar " + jar + " metrics");
    out.println(
        "make it again after rebuilding the jar or changing Java: the JVM ignores an archive"
            + " that does not match them, and the run starts as it would without it");
    return 0;
  }

  private static void write(Path jar, Path archive) {
    List<Path> classLists = new ArrayList<>();
    try {
      Set<String> classes = new LinkedHashSet<>();
      for (String pipeline : TRAINING) {
        Path list = Files.createTempFile("tidemark-" + pipeline + "-", ".classes");
        classLists.add(list);
        ClassDataArchive.java(
            "the training run of " + pipeline,
            javaArgs(ClassDataArchive.listingClassesTo(list), jar, pipeline));
        classes.addAll(Files.readAllLines(list));
      }
      Path classList = Files.createTempFile("tidemark-", ".classes");
      classLists.add(classList);
      ClassDataArchive.write(Files.write(classList, classes), archive, jar.toString());
      ClassDataArchive.java(
          "checking the archive", javaArgs(ClassDataArchive.requiring(archive), jar, "--help"));
    } catch (IOException e) {
      throw new UncheckedIOException("writing or reading a list of classes", e);
    } finally {
      classLists.forEach(list -> list.toFile().delete());
    }
  }

  /** {@code JVM_OPTIONS -cp JAR Tidemark COMMAND}: tidemark's command line with those options. */
  private static String[] javaArgs(List<String> jvmOptions, Path jar, String command) {
    List<String> args = new ArrayList<>(jvmOptions);
    args.addAll(List.of("-cp", jar.toString(), Tidemark.class.getName(), command));
    return args.toArray(String[]::new);
  }

  /** The jar this class was loaded from: an archive is of a jar, the one every run gives. */
  private static Path runningJar() {
    Path location;
    try {
      location =
          Path.of(StartupArchive.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("the location of tidemark's classes is no path", e);
    }
    if (!Files.isRegularFile(location)) {
      throw new ConfigurationException(
          "startup-archive archives the jar it runs from: java -jar tidemark.jar startup-archive");
    }
    return location;
  }
}
