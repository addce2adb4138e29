package dev.tidemark.pipelines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A {@code --sink}, {@code --lateSink} or {@code --deadLetterSink} URI, checked before the job
 * starts: {@code stdout}, {@code file:PATH} (JSON lines, appended) or {@code
 * kafka://HOST:PORT/TOPIC}.
 *
 * <p>{@code stdout} and {@code file:} write from the worker that holds the record: on the
 * DirectRunner and embedded Flink that is this process; on a Flink cluster it is a TaskManager's
 * stdout or file system. Neither is transactional: after a failure and restore, lines may repeat.
 */
final class SinkUri {

  private static final String FORMS = "use stdout, file:PATH or kafka://HOST:PORT/TOPIC";

  private final String uri;

  private SinkUri(String uri) {
    this.uri = uri;
  }

  /**
   * Parses {@code uri}, the value of {@code --option}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  static SinkUri parse(String option, String uri) {
    String value = uri == null ? "" : uri.trim();
    if (value.equals("stdout")) {
      return new SinkUri(value);
    }
    if (value.startsWith("file:")) {
      Path path = Path.of(value.substring("file:".length())).toAbsolutePath();
      Path directory = path.getParent();
      if (directory == null || !Files.isDirectory(directory) || Files.isDirectory(path)) {
        throw new ConfigurationException(
            "--" + option + ": cannot write '" + path + "'; its directory must exist");
      }
      return new SinkUri(value);
    }
    if (value.startsWith("kafka://")) {
      SourceUri.parse(option, value);
      return new SinkUri(value);
    }
    throw new ConfigurationException("--" + option + ": '" + uri + "' is not a sink; " + FORMS);
  }

  /** Writes JSON lines to this sink. */
  PTransform<PCollection<String>, PDone> write() {
    String target = uri;
    return new PTransform<PCollection<String>, PDone>() {
      @Override
      public PDone expand(PCollection<String> lines) {
        if (target.startsWith("kafka://")) {
          String rest = target.substring("kafka://".length());
          int slash = rest.indexOf('/');
          return lines.apply(
              "WriteKafka",
              KafkaIO.<Void, String>write()
                  .withBootstrapServers(rest.substring(0, slash))
                  .withTopic(rest.substring(slash + 1))
                  .withValueSerializer(StringSerializer.class)
                  .values());
        }
        lines.apply(
            target.equals("stdout") ? "PrintLines" : "AppendLines",
            ParDo.of(new WriteLineFn(target)));
        return PDone.in(lines.getPipeline());
      }
    };
  }

  @Override
  public String toString() {
    return uri;
  }

  /**
   * Prints each line, or appends a bundle's lines to the file in one write at the end of the
   * bundle; one lock per file in this JVM keeps concurrent bundles' lines whole.
   */
  private static final class WriteLineFn extends DoFn<String, Void> {
    private static final Map<Path, Object> LOCKS = new ConcurrentHashMap<>();

    private final String target;
    private transient StringBuilder bundle;

    WriteLineFn(String target) {
      this.target = target;
    }

    @StartBundle
    public void startBundle() {
      bundle = new StringBuilder();
    }

    @ProcessElement
    public void processElement(@Element String line) {
      if (target.equals("stdout")) {
        System.out.println(line);
      } else {
        bundle.append(line).append('\n');
      }
    }

    @FinishBundle
    public void finishBundle() {
      if (bundle.length() == 0) {
        return;
      }
      Path path = Path.of(target.substring("file:".length())).toAbsolutePath();
      synchronized (LOCKS.computeIfAbsent(path, p -> new Object())) {
        try {
          Files.writeString(
              path,
              bundle,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot append to " + path, e);
        }
      }
      bundle.setLength(0);
    }
  }
}
