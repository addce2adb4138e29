package dev.tidemark.pipelines.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class-data archive that {@code java -jar tidemark.jar} makes and uses by itself: a run of a
 * pipeline starts 1 to 2 s sooner when the JVM maps the classes it loads, already parsed and
 * verified ({@link ClassDataArchive}), and a JVM maps an archive only when it is started with one.
 *
 * <p>How it goes, for a run of a pipeline or of {@code explain} from the jar:
 *
 * <ul>
 *   <li>The archive lives beside the jar, named after the jar's size and time and the Java that
 *       runs it ({@link #of}): a rebuilt jar or another Java has another name, so a stale archive
 *       is never used, and the next one made replaces it.
 *   <li>When there is none, the run runs as it always did, and as it ends it starts {@code
 *       startup-archive} in the background to make one (about 15 s of one core, once; a second run
 *       that ends meanwhile leaves it alone). Its output is dropped; a run that finds no archive
 *       later simply tries again.
 *   <li>When there is one, the JVM starts the same command line, its own JVM options first, in a
 *       JVM that maps it, and ends with its exit code. The two share stdin, stdout and stderr. A
 *       SIGTERM or Ctrl-C that reaches the first is passed on to the second, whose run stops as it
 *       would by itself (exit code 143 or 130); if the first is killed, so is the second.
 *   <li>It stands aside for a JVM already given class-data options, one started with a debugger
 *       (two could not share its port), a run whose class path is more than the jar, a run under
 *       Flink's launchers, and {@code -Dtidemark.startupArchive=off}.
 * </ul>
 *
 * <p>A JVM that cannot map an archive that matches by name (another garbage collector's layout, for
 * one) starts without it, silently: the run is as it would be without it.
 */
final class AutomaticStartupArchive {

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.startup");

  /** {@code -Dtidemark.startupArchive=off} turns it off for a run. */
  static final String SWITCH = "tidemark.startupArchive";

  /** Set in the JVM that maps the archive: the process id of the JVM that started it. */
  static final String LAUNCHED_BY = "tidemark.launchedBy";

  /** The commands whose runs use and make the archive: those that build and run a job. */
  private static final Set<String> COMMANDS = Set.of("count", "metrics", "join", "sql", "explain");

  /** JVM options a JVM that maps the archive must not be given again. */
  private static final List<String> STANDS_ASIDE_FOR =
      List.of(
          "-Xshare",
          "-XX:SharedArchiveFile",
          "-XX:ArchiveClassesAtExit",
          "-XX:DumpLoadedClassList",
          "-XX:SharedClassListFile",
          "-agentlib:jdwp",
          "-Xrunjdwp",
          "-Xdebug");

  /** How every automatic archive's name begins: {@code startup-archive} deletes the older ones. */
  static final String ARCHIVE_PREFIX = "tidemark-startup-";

  static final String ARCHIVE_SUFFIX = ".jsa";

  /** The exit code of a JVM that SIGKILL ended. */
  private static final int KILLED = 137;

  /** How long an unfinished background run that makes the archive keeps others from starting. */
  private static final Duration MAKING_AT_MOST = Duration.ofMinutes(10);

  private final Path jar;
  private final Path archive;

  /** This JVM's own options, which the JVM that maps the archive is started with too. */
  private final List<String> jvmArguments;

  private AutomaticStartupArchive(Path jar, Path archive, List<String> jvmArguments) {
    this.jar = jar;
    this.archive = archive;
    this.jvmArguments = List.copyOf(jvmArguments);
  }

  /**
   * The archive of the run {@code args} asks for, in a JVM started with {@code jvmArguments} on
   * {@code classPath}, whose tidemark classes are in {@code runningJar}, with {@code switchValue}
   * as {@link #SWITCH}; empty when the run neither uses nor makes one.
   */
  static Optional<AutomaticStartupArchive> forRun(
      String[] args,
      List<String> jvmArguments,
      String classPath,
      @Nullable Path runningJar,
      @Nullable String switchValue) {
    if (args.length == 0
        || !COMMANDS.contains(args[0])
        || "off".equals(switchValue)
        || jvmArguments.stream()
            .anyMatch(argument -> STANDS_ASIDE_FOR.stream().anyMatch(argument::startsWith))) {
      return Optional.empty();
    }
    Path jar = Path.of(classPath).toAbsolutePath().normalize();
    if (!classPath.endsWith(".jar") || !jar.equals(runningJar) || !Files.isRegularFile(jar)) {
      return Optional.empty();
    }
    return Optional.of(new AutomaticStartupArchive(jar, of(jar), jvmArguments));
  }

  /** The archive of this JVM's run of {@code args}, if it uses or makes one. */
  static Optional<AutomaticStartupArchive> forThisRun(String[] args) {
    if (args.length == 0 || !COMMANDS.contains(args[0])) {
      // Before asking for the JVM's arguments: --help need not load the management classes.
      return Optional.empty();
    }
    return forRun(
        args,
        ManagementFactory.getRuntimeMXBean().getInputArguments(),
        System.getProperty("java.class.path"),
        RunningJar.path(),
        System.getProperty(SWITCH));
  }

  /**
   * Where the automatic archive of {@code jar} is: beside it, named after its size, its time and
   * this JVM's Java.
   */
  static Path of(Path jar) {
    return jar.resolveSibling(ARCHIVE_PREFIX + RunningJar.identity(jar) + ARCHIVE_SUFFIX);
  }

  /** Whether the archive is there to be used. */
  boolean exists() {
    return Files.isRegularFile(archive);
  }

  /**
   * Runs {@code args} in a JVM that maps the archive, started with this JVM's own options, passes
   * SIGTERM and Ctrl-C on to it, and returns its exit code; -1 if it could not be started, when the
   * run goes on in this JVM.
   */
  int runMapped(String[] args) {
    List<String> command = new ArrayList<>();
    command.add(ClassDataArchive.javaExecutable());
    command.addAll(jvmArguments);
    command.add("-XX:SharedArchiveFile=" + archive);
    command.add("-Xshare:auto");
    command.add("-D" + LAUNCHED_BY + "=" + ProcessHandle.current().pid());
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    // The options these carry are among this JVM's own arguments, passed on above.
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    Process mapped;
    try {
      mapped = builder.start();
    } catch (IOException e) {
      LOG.warn(
          "could not start a JVM with the startup archive, running without it: {}", e.toString());
      return -1;
    }
    SignalsPassedOn.to(mapped);
    while (true) {
      try {
        return mapped.waitFor();
      } catch (InterruptedException e) {
        // Only the mapped JVM's end ends this one.
      }
    }
  }

  /**
   * Starts making the archive in the background, unless it is there or another run is making it.
   */
  void makeInBackground() {
    if (exists() || !Files.isWritable(archive.getParent()) || !claimTheMaking()) {
      return;
    }
    List<String> command =
        List.of(
            ClassDataArchive.javaExecutable(),
            "-D" + SWITCH + "=off",
            "-cp",
            jar.toString(),
            Tidemark.class.getName(),
            StartupArchive.COMMAND,
            "--archive=" + archive);
    try {
      Process making =
          new ProcessBuilder(command)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      making.getOutputStream().close();
      LOG.info(
          "making a startup archive of the jar in the background, once: {} (later runs start"
              + " 1 to 2 s sooner with it; -D{}=off turns this off)",
          archive,
          SWITCH);
    } catch (IOException e) {
      StartupArchive.releaseTheMaking(archive);
    }
  }

  /**
   * Marks the archive as being made, unless a run has marked it in the last {@link
   * #MAKING_AT_MOST}; false when another run is making it.
   */
  private boolean claimTheMaking() {
    Path marker = StartupArchive.makingMarker(archive);
    try {
      Files.createFile(marker);
      return true;
    } catch (FileAlreadyExistsException e) {
      try {
        FileTime marked = Files.getLastModifiedTime(marker);
        if (marked.toInstant().isAfter(Instant.now().minus(MAKING_AT_MOST))) {
          return false;
        }
        Files.setLastModifiedTime(marker, FileTime.from(Instant.now()));
        return true;
      } catch (IOException gone) {
        return false;
      }
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * In a JVM started by {@link #runMapped}: ends it as if killed (exit code 137) when the JVM that
   * started it ends without passing a signal on, which is when it was killed itself.
   */
  static void endWhenTheLauncherIsGone() {
    String launcher = System.getProperty(LAUNCHED_BY);
    if (launcher == null) {
      return;
    }
    ProcessHandle.of(Long.parseLong(launcher))
        .map(ProcessHandle::onExit)
        .orElse(CompletableFuture.completedFuture(null))
        .thenRun(() -> Runtime.getRuntime().halt(KILLED));
  }
}
