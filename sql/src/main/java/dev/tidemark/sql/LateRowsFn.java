package dev.tidemark.sql;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.windowing.Expired;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.util.RowJson;
import org.apache.beam.sdk.util.RowJsonUtils;
import org.apache.beam.sdk.values.Row;

/**
 * Each late row of {@link SqlPerWindow} as the typed {@code Row} it came as, with its window and
 * the watermark it met: the pane engine carries a row as an event whose text is the row as JSON
 * ({@link RowsToEventsFn}, with Beam's {@code RowJson}), and this reads that text back with the
 * same schema. Only late rows take this step, so the parse costs nothing on the rows on time.
 */
final class LateRowsFn extends DoFn<Expired<Event>, Expired<Row>> {

  private static final long serialVersionUID = 1L;

  private final Schema schema;
  private transient ObjectMapper json;

  LateRowsFn(Schema schema) {
    this.schema = schema;
  }

  @Setup
  public void setUp() {
    json = RowJsonUtils.newObjectMapperWith(RowJson.RowJsonDeserializer.forSchema(schema));
  }

  @ProcessElement
  public void process(@Element Expired<Event> late, OutputReceiver<Expired<Row>> out) {
    Row row = RowJsonUtils.jsonToRow(json, late.value().raw());
    out.output(new Expired<>(row, late.eventTime(), late.window(), late.watermark()));
  }
}
