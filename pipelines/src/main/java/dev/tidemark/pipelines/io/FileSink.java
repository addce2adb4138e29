package dev.tidemark.pipelines.io;

import java.nio.file.Path;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
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
  public PTransform<PCollection<String>, PDone> write() {
    String target = path;
    return new PTransform<PCollection<String>, PDone>() {
      @Override
      public PDone expand(PCollection<String> lines) {
        lines.apply("AppendLines", ParDo.of(new AppendLinesFn(target)));
        return PDone.in(lines.getPipeline());
      }
    };
  }

  @Override
  public String toString() {
    return "file:" + path;
  }

  /** Appends a bundle's lines in one write ({@link FileAppends}). */
  private static final class AppendLinesFn extends DoFn<String, Void> {
    private final String path;
    private transient StringBuilder bundle;

    AppendLinesFn(String path) {
      this.path = path;
    }

    @StartBundle
    public void startBundle() {
      bundle = new StringBuilder();
    }

    @ProcessElement
    public void processElement(@Element String line) {
      bundle.append(line).append('\n');
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
