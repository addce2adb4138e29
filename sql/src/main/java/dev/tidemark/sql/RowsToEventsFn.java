package dev.tidemark.sql;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.ParseEvents;
import java.time.LocalDate;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.util.RowJson;
import org.apache.beam.sdk.util.RowJsonUtils;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.joda.time.Instant;
import org.joda.time.ReadableInstant;

/**
 * Turns each row of a {@code PCollection<Row>} into the event a query's pane engine takes, at the
 * row's timestamp, its text the row as JSON (Beam's {@code RowJson}), for a late or dead copy to
 * show. A null field is SQL's {@code NULL}; a row the query cannot evaluate is a dead letter.
 */
final class RowsToEventsFn extends DoFn<Row, Event> {

  private static final long serialVersionUID = 1L;

  private final WindowedQuery query;
  private final Schema schema;
  private final TupleTag<Event> events;
  private transient ObjectMapper json;

  RowsToEventsFn(WindowedQuery query, Schema schema, TupleTag<Event> events) {
    this.query = query;
    this.schema = schema;
    this.events = events;
  }

  @Setup
  public void setUp() {
    json = RowJsonUtils.newObjectMapperWith(RowJson.RowJsonSerializer.forSchema(schema));
  }

  @ProcessElement
  public void process(@Element Row row, @Timestamp Instant timestamp, MultiOutputReceiver out) {
    String text = RowJsonUtils.rowToJson(json, row);
    try {
      out.get(events).output(query.event(values(row, timestamp), timestamp, text));
    } catch (BadRecordException e) {
      out.get(ParseEvents.DEAD_LETTER).output(new DeadLetter(text, e.getMessage()));
    }
  }

  /** The row's values as Calcite holds them, {@code rowtime} last, times in the query's zone. */
  private Object[] values(Row row, Instant timestamp) {
    int fields = schema.getFieldCount();
    SessionTimeZone zone = query.table().timeZone();
    Object[] values = new Object[fields + 1];
    for (int f = 0; f < fields; f++) {
      Object value = row.getValue(f);
      if (value instanceof ReadableInstant instant) {
        values[f] = zone.local(instant.getMillis());
      } else if (value instanceof LocalDate date) {
        values[f] = (int) date.toEpochDay();
      } else {
        values[f] = value;
      }
    }
    values[fields] = zone.local(timestamp.getMillis());
    return values;
  }
}
