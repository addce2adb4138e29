package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.sql.QueryPlans;
import dev.tidemark.sql.WindowedQuery;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The plans of {@code sql}'s queries, saved beside the jar, so that a later run of the same query
 * over the same table reads its plan rather than planning it again, without Beam SQL's environment
 * and Calcite's planner ({@link QueryPlans}).
 *
 * <p>How it goes:
 *
 * <ul>
 *   <li>The plans live in a directory beside the jar named after the jar's build and the Java that
 *       runs it ({@link RunningJar#identity}): a plan is the Java serialization of a {@link
 *       WindowedQuery}, which only the same classes read back as they were written. A rebuilt jar
 *       uses a new directory, and the first plan it saves deletes the directories of other builds.
 *   <li>A plan's file is named after a SHA-256 of everything the plan is made from (the query's
 *       text, the table's name, schema and event time or the text of its definition, the time
 *       zone), so another query, schema, definition or zone is planned anew, never read from
 *       another's plan.
 *   <li>{@link #plan} only reads; the command line saves what it planned ({@link #save}) after the
 *       pipeline is built, so building one writes nothing. A query that does not plan is never
 *       saved. A file is written whole under another name and then moved into place, so a run never
 *       reads half a plan; a plan that cannot be read back for any reason is planned again and
 *       saved over.
 *   <li>At most {@link #AT_MOST} plans are kept, the ones saved last.
 * </ul>
 *
 * <p>A plan is read with Java serialization, as Flink reads the job's functions: it trusts what is
 * beside the jar as it trusts the jar itself.
 */
final class SavedQueryPlans implements QueryPlans {

  /** How the directory of every jar's plans begins. */
  static final String DIRECTORY_PREFIX = "tidemark-plans-";

  private static final String SUFFIX = ".plan";

  /** Plans kept for one jar at most. */
  static final int AT_MOST = 64;

  private final Path directory;

  /** The plans made in this run and not saved yet, by their file. */
  private final Map<Path, WindowedQuery> planned = new LinkedHashMap<>();

  private SavedQueryPlans(Path directory) {
    this.directory = directory;
  }

  /** The plans saved beside the jar tidemark runs from; empty when it does not run from a jar. */
  static Optional<SavedQueryPlans> forThisJar() {
    return Optional.ofNullable(RunningJar.path()).map(SavedQueryPlans::besideJar);
  }

  /** The plans saved beside {@code jar}. */
  static SavedQueryPlans besideJar(Path jar) {
    return new SavedQueryPlans(jar.resolveSibling(DIRECTORY_PREFIX + RunningJar.identity(jar)));
  }

  @Override
  public WindowedQuery plan(String inputs, Supplier<WindowedQuery> planner) {
    Path file = directory.resolve(nameOf(inputs) + SUFFIX);
    WindowedQuery saved = read(file);
    if (saved != null) {
      return saved;
    }
    WindowedQuery query = planner.get();
    planned.put(file, query);
    return query;
  }

  /**
   * Saves the plans made since this was made, keeps the {@link #AT_MOST} saved last and deletes
   * other builds' plans. A plan that cannot be saved (a directory it may not write) is left out:
   * the next run plans it again.
   */
  void save() {
    if (planned.isEmpty()) {
      return;
    }
    try {
      Files.createDirectories(directory);
      for (Map.Entry<Path, WindowedQuery> plan : planned.entrySet()) {
        write(plan.getKey(), plan.getValue());
      }
      planned.clear();
      keepTheNewest();
      deleteOtherBuilds();
    } catch (IOException e) {
      // Saving only saves time: the run goes on, and the next plans its query itself.
    }
  }

  private static @Nullable WindowedQuery read(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
        return (WindowedQuery) in.readObject();
      }
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      return null;
    }
  }

  private static void write(Path file, WindowedQuery query) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(query);
    }
    Path written = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".part");
    try {
      Files.write(written, bytes.toByteArray());
      Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(written);
    }
  }

  private void keepTheNewest() throws IOException {
    List<Path> plans = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
      files.forEach(plans::add);
    }
    if (plans.size() <= AT_MOST) {
      return;
    }
    plans.sort(Comparator.comparing(SavedQueryPlans::savedAt).reversed());
    for (Path old : plans.subList(AT_MOST, plans.size())) {
      Files.deleteIfExists(old);
    }
  }

  private static long savedAt(Path plan) {
    try {
      return Files.getLastModifiedTime(plan).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private void deleteOtherBuilds() throws IOException {
    try (DirectoryStream<Path> builds =
        Files.newDirectoryStream(directory.getParent(), DIRECTORY_PREFIX + "*")) {
      for (Path build : builds) {
        if (!build.equals(directory) && Files.isDirectory(build)) {
          deleteAll(build);
        }
      }
    }
  }

  private static void deleteAll(Path build) throws IOException {
    try (Stream<Path> files = Files.list(build)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.deleteIfExists(file);
      }
    }
    Files.deleteIfExists(build);
  }

  private static String nameOf(String inputs) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha256.digest(inputs.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }
}
