package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * What a JVM's JIT compiler compiled between two instants, library by library: the {@code
 * jdk.Compilation} events of a JFR recording made with {@link #SETTINGS}, each counted in full by
 * the instant it began and by its wall time (a compiler thread that waits for a core counts as
 * compiling), under the library whose package holds the compiled method's class. It says which code
 * the compiler threads' share of a job's CPU ({@link ThreadsCpu}) went to: two jobs that read the
 * same topic with the same Kafka client compile that client's code alike.
 */
record CompilationsByLibrary(Map<String, Duration> byLibrary) {

  /** JFR settings that record every compilation, however short, and nothing else. */
  static final String SETTINGS =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <configuration version="2.0" label="compilations">
        <event name="jdk.Compilation">
          <setting name="enabled">true</setting>
          <setting name="threshold">0 ms</setting>
        </event>
      </configuration>
      """;

  /** Libraries by the start of their classes' names; the first that matches names the library. */
  private static final List<Map.Entry<String, String>> LIBRARIES =
      List.of(
          Map.entry("org.apache.kafka.", "Kafka client"),
          Map.entry("org.apache.beam.", "Beam"),
          Map.entry("org.apache.flink.", "Flink"),
          Map.entry("dev.tidemark.benchmarks.", "the benchmark's job"),
          Map.entry("dev.tidemark.", "tidemark"),
          Map.entry("com.fasterxml.jackson.", "Jackson"),
          Map.entry("java.", "JDK"),
          Map.entry("javax.", "JDK"),
          Map.entry("jdk.", "JDK"),
          Map.entry("sun.", "JDK"),
          Map.entry("com.sun.", "JDK"));

  private static final String OTHER = "other";

  /** The compilations of {@code recording} that began in [{@code from}, {@code to}). */
  static CompilationsByLibrary read(Path recording, Instant from, Instant to) throws IOException {
    Map<String, Duration> byLibrary = new HashMap<>();
    try (RecordingFile file = new RecordingFile(recording)) {
      while (file.hasMoreEvents()) {
        RecordedEvent event = file.readEvent();
        Instant began = event.getStartTime();
        if (event.getEventType().getName().equals("jdk.Compilation")
            && !began.isBefore(from)
            && began.isBefore(to)) {
          RecordedMethod method = event.getValue("method");
          byLibrary.merge(
              libraryOf(method.getType().getName()), event.getDuration(), Duration::plus);
        }
      }
    }
    return new CompilationsByLibrary(Map.copyOf(byLibrary));
  }

  /** The library of a class by its binary name; {@code other} for none of {@link #LIBRARIES}. */
  static String libraryOf(String className) {
    for (Map.Entry<String, String> library : LIBRARIES) {
      if (className.startsWith(library.getKey())) {
        return library.getValue();
      }
    }
    return OTHER;
  }

  Duration total() {
    return byLibrary.values().stream().reduce(Duration.ZERO, Duration::plus);
  }

  /** The total, then each library, the longest first, with its share of the total. */
  String line() {
    if (byLibrary.isEmpty()) {
      return "no JIT compile task began in the measured part";
    }
    double total = seconds(total());
    StringJoiner libraries = new StringJoiner(", ");
    List<Map.Entry<String, Duration>> longestFirst = new ArrayList<>(byLibrary.entrySet());
    longestFirst.sort(Map.Entry.<String, Duration>comparingByValue().reversed());
    for (Map.Entry<String, Duration> library : longestFirst) {
      double seconds = seconds(library.getValue());
      libraries.add(
          String.format(
              Locale.ROOT,
              "%s %.2f s (%.0f %%)",
              library.getKey(),
              seconds,
              100 * seconds / total));
    }
    return String.format(
        Locale.ROOT, "JIT compile tasks begun in the measured part: %.2f s; %s", total, libraries);
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
