package dev.tidemark.transforms.sql;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * The records a query's pane step found expired, as {@code Expired<Event>}s with their window and
 * the watermark they met: every one but those {@code WHERE} filtered out, which are in no row, so
 * never a late one.
 */
public final class LateRows
    extends PTransform<PCollection<KV<EventKey, Expired<Event>>>, PCollection<Expired<Event>>> {

  private final WindowedQuery query;

  private LateRows(WindowedQuery query) {
    this.query = query;
  }

  /** The late rows of {@code query}'s expired records. */
  public static LateRows of(WindowedQuery query) {
    return new LateRows(query);
  }

  @Override
  public PCollection<Expired<Event>> expand(PCollection<KV<EventKey, Expired<Event>>> expired) {
    WindowedQuery planned = query;
    return expired
        .apply("RowsOnly", Filter.by(late -> !planned.isFiltered(late.getKey())))
        .apply("LateRecords", Values.create())
        .setCoder(Expired.ExpiredCoder.of(Event.Coder.of()));
  }
}
