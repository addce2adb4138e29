package dev.tidemark.sql;

import dev.tidemark.transforms.metrics.TidemarkMetrics;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;

/**
 * The records a query's pane step, live or replayed, found expired, as {@code Expired<Event>}s with
 * their window and the watermark they met: every one but those {@code WHERE} filtered out, which
 * are in no row, so never a late one. The pane step counts every record it finds expired as late; a
 * filtered one is counted as filtered when it is read ({@link WindowedQuery}), so this step takes
 * it back from the late count, and the counts add up: each record is counted once.
 */
public final class LateRows
    extends PTransform<PCollection<Expired<Event>>, PCollection<Expired<Event>>> {

  private final WindowedQuery query;

  private LateRows(WindowedQuery query) {
    this.query = query;
  }

  /** The late rows of {@code query}'s expired records. */
  public static LateRows of(WindowedQuery query) {
    return new LateRows(query);
  }

  @Override
  public PCollection<Expired<Event>> expand(PCollection<Expired<Event>> expired) {
    return expired
        .apply("RowsOnly", ParDo.of(new RowsOnlyFn(query)))
        .setCoder(Expired.ExpiredCoder.of(Event.Coder.of()));
  }

  /** The expired records of the query's rows; a filtered one only leaves the late count. */
  private static final class RowsOnlyFn extends DoFn<Expired<Event>, Expired<Event>> {

    private static final long serialVersionUID = 1L;

    private final WindowedQuery query;
    private final Counter lateRecords = TidemarkMetrics.lateRecords();

    RowsOnlyFn(WindowedQuery query) {
      this.query = query;
    }

    @ProcessElement
    public void processElement(
        @Element Expired<Event> expired, OutputReceiver<Expired<Event>> out) {
      if (query.isFiltered(expired.value().key())) {
        lateRecords.dec();
      } else {
        out.output(expired);
      }
    }
  }
}
