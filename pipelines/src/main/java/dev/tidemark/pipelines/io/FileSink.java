package dev.tidemark.pipelines.io;

import java.nio.file.Path;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * {@code file:PATH}: JSON lines appended to a file of the worker that holds them, a bundle's lines
 * in one write. Not transactional: after a failure and restore, lines may repeat; results carry
 * their pane index, so a reader keeps the latest per key and window.
 */
final class FileSink implements Sink {

  private static final long serialVersionUID = 1L;

  private final String path;

  FileSink(Path path) {
    this.path = path.toAbsolutePath().toString();
  }

  @Override
  public <T> PTransform<PCollection<T>, PDone> write(String output, Lines<T> lines) {
    return WriteStep.of("AppendLines", new AppendLinesFn<>(path, lines));
  }

  @Override
  public String toString() {
    return "file:" + path;
  }

  /** Appends a bundle's lines in one write ({@link FileAppends}). */
  private static final class AppendLinesFn<T> extends DoFn<T, Void> {
    private final String path;
    private final Lines<T> lines;
    private transient StringBuilder bundle;

    AppendLinesFn(String path, Lines<T> lines) {
      this.path = path;
      this.lines = lines;
    }

    @StartBundle
    public void startBundle() {
      bundle = new StringBuilder();
    }

    @ProcessElement
    public void processElement(@Element T element) {
      bundle.append(lines.text().apply(element)).append('\n');
    }

    @FinishBundle
    public void finishBundle() {
      if (bundle.length() == 0) {
        return;
      }
      FileAppends.append(Path.of(path), bundle);
      bundle.setLength(0);
    }
  }
}
