package dev.tidemark.pipelines.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads, on a thread of its own, the classes a pipeline's run on Flink will load, while the main
 * thread parses its options, plans its query and builds it: a run loads about 8,000 classes from
 * the jar (12,000 for {@code sql}), and the main thread would otherwise load them one by one while
 * the second core waits. The classes are loaded, not initialized, so nothing runs early.
 *
 * <p>The list ({@code preload-classes.txt}, written by {@code pipelines/preload-classes.sh} from
 * the built jar) holds the classes every pipeline loads, then under {@code ## <pipeline>} those
 * only that pipeline loads. A class it names that is gone is passed over, and one it misses is
 * loaded by the run itself: a stale list costs time, never a result. Written by hand: the JVM's own
 * class-data archive ({@code startup-archive}) does more, but only for a user who makes one.
 */
final class ClassPreloader {

  private static final String LIST = "preload-classes.txt";

  private static final Set<String> PIPELINES = Set.of("count", "metrics", "join", "sql");

  /**
   * The system property that turns preloading off ({@code -Dtidemark.noPreload=true}): for the runs
   * that write the list, whose order of loading must be the run's own.
   */
  static final String OFF = "tidemark.noPreload";

  private final String pipeline;

  private ClassPreloader(String pipeline) {
    this.pipeline = pipeline;
  }

  /**
   * Starts loading the classes of the run {@code args} asks for, when it is a pipeline's run on
   * Flink; the DirectRunner loads other classes, and help or a tool's command few. Not when {@link
   * #OFF} is set.
   */
  static void startFor(String[] args) {
    if (args.length == 0
        || Boolean.getBoolean(OFF)
        || !PIPELINES.contains(args[0])
        || Arrays.asList(args).contains("--runner=DirectRunner")) {
      return;
    }
    Thread loading = new Thread(new ClassPreloader(args[0])::load, "tidemark-preload");
    loading.setDaemon(true);
    loading.setPriority(Thread.MIN_PRIORITY);
    loading.start();
  }

  private void load() {
    ClassLoader loader = ClassPreloader.class.getClassLoader();
    for (String name : classesOf(pipeline)) {
      loadQuietly(name, loader);
    }
  }

  /** The classes the list names for {@code pipeline}, in the order a run loads them. */
  static List<String> classesOf(String pipeline) {
    return classesOf(Set.of(pipeline));
  }

  /** The classes the list names for any pipeline: those a class-data archive of the jar holds. */
  static List<String> classesOfEveryPipeline() {
    return List.copyOf(new LinkedHashSet<>(classesOf(PIPELINES)));
  }

  private static List<String> classesOf(Set<String> pipelines) {
    List<String> classes = new ArrayList<>();
    InputStream list = ClassPreloader.class.getResourceAsStream(LIST);
    if (list == null) {
      return classes;
    }
    try (BufferedReader names =
        new BufferedReader(new InputStreamReader(list, StandardCharsets.UTF_8))) {
      boolean wanted = true;
      for (String name = names.readLine(); name != null; name = names.readLine()) {
        if (name.startsWith("## ")) {
          wanted = pipelines.contains(name.substring(3));
        } else if (wanted && !name.startsWith("#")) {
          classes.add(name);
        }
      }
    } catch (IOException e) {
      // The run loads what is left itself.
    }
    return classes;
  }

  private static void loadQuietly(String name, ClassLoader loader) {
    try {
      Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      // A class the list names that the jar no longer has: the list is older than the code.
    }
  }
}
