package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.io.Lines;
import dev.tidemark.transforms.model.DeadLetter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Writes a bundle's elements to a table as one batch when the bundle ends ({@link TableWriter}), so
 * that a checkpoint, which ends the bundle first, finds them written; a replay after a restore
 * writes them again, and the table keeps one row per key ({@link RowBatch}) or origin.
 *
 * <p>While the database does not answer, the bundle waits and retries with backoff (100 ms,
 * doubling, at most 5 s), so that a down database holds the pipeline back and loses nothing; one
 * WARN line says so ({@link Outages}). A row the database refuses for its own values is given out
 * as a dead letter with the database's reason, and the rest are written.
 *
 * @param <T> the elements written
 */
final class WriteRowsFn<T> extends DoFn<T, DeadLetter> {

  private static final long serialVersionUID = 1L;
  private static final long FIRST_BACKOFF_MILLIS = 100;
  private static final long LAST_BACKOFF_MILLIS = 5_000;

  private final JdbcAddress address;
  private final TreeMap<String, String> properties;
  private final SqlDialect dialect;
  private final Lines<T> lines;

  private transient DataSource pool;
  private transient TableWriter writer;
  private transient RowBatch batch;

  /** Each row's line, timestamp and window, for a row the database refuses. */
  private transient Map<@Nullable Object[], Written> written;

  WriteRowsFn(
      JdbcAddress address, Map<String, String> properties, SqlDialect dialect, Lines<T> lines) {
    this.address = address;
    this.properties = new TreeMap<>(properties);
    this.dialect = dialect;
    this.lines = lines;
  }

  /** A row's line, and where it was in the pipeline. */
  private record Written(String line, Instant timestamp, BoundedWindow window) {}

  @Setup
  public void setup() {
    pool = ConnectionPools.of(address.url(), properties);
    writer = new TableWriter(dialect, address.table());
  }

  @StartBundle
  public void startBundle() {
    batch = new RowBatch(lines.table());
    written = new IdentityHashMap<>();
  }

  @ProcessElement
  public void processElement(
      @Element T element, @Timestamp Instant timestamp, BoundedWindow window) {
    String line = lines.text().apply(element);
    @Nullable Object[] row = RowValues.of(lines.table(), line, lines.key().apply(element));
    batch.add(row, lines.withdraws().apply(element));
    written.put(row, new Written(line, timestamp, window));
  }

  @FinishBundle
  public void finishBundle(FinishBundleContext context) throws InterruptedException {
    if (batch.isEmpty()) {
      return;
    }
    Map<@Nullable Object[], String> refused = writeUntilItAnswers();
    refused.forEach(
        (row, reason) -> {
          Written element = written.get(row);
          context.output(
              new DeadLetter(
                  element.line(),
                  address.server()
                      + " refused the row for table "
                      + address.table()
                      + ": "
                      + reason,
                  null),
              element.timestamp(),
              element.window());
        });
    batch = new RowBatch(lines.table());
    written.clear();
  }

  private Map<@Nullable Object[], String> writeUntilItAnswers() throws InterruptedException {
    long backoff = FIRST_BACKOFF_MILLIS;
    while (true) {
      try (Connection connection = pool.getConnection()) {
        Map<@Nullable Object[], String> refused = writer.write(connection, batch);
        Outages.up(address);
        return refused;
      } catch (SQLException e) {
        if (!dialect.isTransient(e)) {
          throw new IllegalStateException(
              "cannot write table "
                  + address.table()
                  + " of "
                  + address.server()
                  + ": "
                  + LoginErrors.firstLine(e),
              e);
        }
        Outages.down(address, e);
        Thread.sleep(backoff);
        backoff = Math.min(LAST_BACKOFF_MILLIS, backoff * 2);
      }
    }
  }
}
