package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.io.Lines;
import dev.tidemark.pipelines.io.Sink;
import dev.tidemark.transforms.model.DeadLetter;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code jdbc:postgresql://HOST:PORT/DB?table=NAME}: each output's rows in a table of its {@link
 * dev.tidemark.pipelines.io.TableLayout}, which is created, or checked, as the pipeline is built
 * ({@link TableCheck}). Results keep one row per key and window, the newest pane; late records and
 * dead letters one row per origin. Writes are at least once, a bundle at a time ({@link
 * WriteRowsFn}), and replays are harmless: the table is what a run without failures leaves.
 */
public final class TableSink implements Sink {

  private static final long serialVersionUID = 1L;

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.sink");

  private final String option;
  private final JdbcAddress address;
  private final TreeMap<String, String> properties;
  private final SqlDialect dialect;

  /**
   * The sink of {@code --option}'s {@code address}, logging in with {@code properties} and writing
   * {@code dialect}'s SQL.
   */
  public TableSink(
      String option, JdbcAddress address, Map<String, String> properties, SqlDialect dialect) {
    this.option = option;
    this.address = address;
    this.properties = new TreeMap<>(properties);
    this.dialect = dialect;
  }

  /**
   * Writes as {@link #writeRefusing} does; a row the database refuses is logged, with its reason,
   * as an ERROR line: this write has no dead letters to give it to.
   */
  @Override
  public <T> PTransform<PCollection<T>, PDone> write(String output, Lines<T> lines) {
    PTransform<PCollection<T>, PCollection<DeadLetter>> write = writeOrRefuse(lines);
    return new PTransform<PCollection<T>, PDone>() {
      @Override
      public PDone expand(PCollection<T> elements) {
        elements.apply("WriteRows", write).apply("LogRefused", ParDo.of(new LogRefusedFn()));
        return PDone.in(elements.getPipeline());
      }
    };
  }

  /**
   * Readies the table for {@code lines}' layout now, before the job starts, and gives the write
   * that keeps it.
   *
   * @throws ConfigurationException when the database or the table does not fit, in one line
   */
  @Override
  public <T> Optional<PTransform<PCollection<T>, PCollection<DeadLetter>>> writeRefusing(
      String output, Lines<T> lines) {
    return Optional.of(writeOrRefuse(lines));
  }

  private <T> PTransform<PCollection<T>, PCollection<DeadLetter>> writeOrRefuse(Lines<T> lines) {
    new TableCheck(option, address, dialect).ready(lines.table(), properties);
    WriteRowsFn<T> fn = new WriteRowsFn<>(address, properties, dialect, lines);
    return new PTransform<PCollection<T>, PCollection<DeadLetter>>() {
      @Override
      public PCollection<DeadLetter> expand(PCollection<T> elements) {
        return elements.apply("WriteRows", ParDo.of(fn));
      }
    };
  }

  /** A table's writer waits for the database as each bundle ends, as a Kafka sink does. */
  @Override
  public boolean waitsForItsServerEachBundle() {
    return true;
  }

  @Override
  public String toString() {
    return address.toString();
  }

  /** Logs each row a table refused: the last stop of a dead letter. */
  private static final class LogRefusedFn extends DoFn<DeadLetter, Void> {
    @ProcessElement
    public void processElement(@Element DeadLetter refused) {
      LOG.error("{}: {}", refused.reason(), refused.raw());
    }
  }
}
