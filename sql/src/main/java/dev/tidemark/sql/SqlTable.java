package dev.tidemark.sql;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.extensions.sql.meta.BaseBeamTable;
import org.apache.beam.sdk.extensions.sql.meta.BeamSqlTable;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The table a query reads: its name, the record's columns with their SQL types, and the event-time
 * column ({@code rowtime} by default), a {@code TIMESTAMP} that holds each row's event time, read
 * from one of the record's columns. A column may be {@code NULL}, as in Flink SQL, unless it is
 * declared {@code NOT NULL}; a record whose event time, or {@code NOT NULL} column, is null is a
 * dead letter.
 *
 * <pre>{@code
 * SqlTable events = SqlTable.of("events", "t BIGINT, i STRING, op STRING", "t");
 * SqlTable requests = SqlTable.ofDdl(
 *     "CREATE TABLE requests (ts BIGINT, `user` STRING, rowtime AS TO_TIMESTAMP_LTZ(ts, 3),"
 *         + " WATERMARK FOR rowtime AS rowtime - INTERVAL '2' SECOND)").table();
 * }</pre>
 */
public final class SqlTable implements Serializable {

  private static final long serialVersionUID = 1L;

  /** The event-time column of a table that {@code --eventTime} names, as Flink and Beam call it. */
  public static final String ROWTIME = "rowtime";

  private final String name;

  /** Each column of a record, in its order: a CSV line's. */
  private final List<DeclaredColumn> recordColumns;

  /**
   * Where the event time comes from; null for a table of rows whose event times are their elements'
   * timestamps.
   */
  private final @Nullable EventTimeColumn eventTime;

  /** The name the query gives the event time, its last column. */
  private final String rowtime;

  /** Whether the event time's own column is the event-time column, not a column of its own. */
  private final boolean timeColumnIsRowtime;

  private final SessionTimeZone timeZone;

  private SqlTable(
      String name,
      List<DeclaredColumn> recordColumns,
      @Nullable EventTimeColumn eventTime,
      String rowtime,
      boolean timeColumnIsRowtime,
      SessionTimeZone timeZone) {
    this.name = name;
    this.recordColumns = List.copyOf(recordColumns);
    this.eventTime = eventTime;
    this.rowtime = rowtime;
    this.timeColumnIsRowtime = timeColumnIsRowtime;
    this.timeZone = timeZone;
  }

  /**
   * The table {@code name} whose columns {@code schema} declares as a SQL column list ({@code 't
   * BIGINT, i STRING'}, with Flink SQL's types, read by Flink SQL's parser), with each row's event
   * time in column {@code eventTime}: epoch milliseconds, or a timestamp.
   *
   * @throws InvalidQueryException when the list does not parse, names a type {@code sql} does not
   *     read, names {@code rowtime}, or lacks {@code eventTime}
   */
  public static SqlTable of(String name, String schema, String eventTime)
      throws InvalidQueryException {
    FlinkCreateTable declared = FlinkCreateTable.columnList(schema);
    for (DeclaredColumn column : declared.columns()) {
      if (column.name().equalsIgnoreCase(ROWTIME)) {
        throw InvalidQueryException.refused(
            "column 'rowtime' is the event time the query reads from the event-time column;"
                + " give the record's own column another name");
      }
    }
    int eventTimeColumn = declared.columnIndex(eventTime);
    if (eventTimeColumn < 0) {
      throw new InvalidQueryException(
          "the event-time column '" + eventTime + "' is not in the schema",
          0,
          0,
          eventTime,
          declared.columns().stream().map(DeclaredColumn::name).toList());
    }
    ColumnType timeType = declared.columns().get(eventTimeColumn).type();
    if (timeType != ColumnType.BIGINT && timeType != ColumnType.TIMESTAMP) {
      throw InvalidQueryException.refused(
          "the event-time column '"
              + eventTime
              + "' is a "
              + timeType
              + "; it holds epoch milliseconds (BIGINT) or an instant (TIMESTAMP)");
    }
    return new SqlTable(
        name,
        declared.columns(),
        new EventTimeColumn(eventTimeColumn, eventTime, EventTimeColumn.Reading.TIMESTAMP, null),
        ROWTIME,
        false,
        SessionTimeZone.UTC);
  }

  /**
   * The table a Flink SQL {@code CREATE TABLE} defines, with its watermark's delay and its {@code
   * WITH} options.
   *
   * @throws InvalidQueryException when the statement does not parse, has no {@code WATERMARK}, or
   *     holds what {@code sql} does not take, named
   */
  public static TableDefinition ofDdl(String ddl) throws InvalidQueryException {
    FlinkCreateTable create = FlinkCreateTable.parse(ddl);
    String time = create.timeAttribute();
    if (time == null || create.watermarkDelay() == null) {
      throw InvalidQueryException.refused(
          "the table has no WATERMARK, so no event time: add one, such as WATERMARK FOR rowtime"
              + " AS rowtime - INTERVAL '2' SECOND, for a TIMESTAMP column or for rowtime AS"
              + " TO_TIMESTAMP_LTZ(epoch_millis_column, 3)");
    }
    EventTimeColumn eventTime = create.computedTime();
    boolean timeColumnIsRowtime = eventTime == null;
    if (eventTime == null) {
      int column = create.columnIndex(time);
      if (column < 0 || create.columns().get(column).type() != ColumnType.TIMESTAMP) {
        throw InvalidQueryException.refused(
            "WATERMARK FOR "
                + time
                + ": the watermark is for a TIMESTAMP(3) or TIMESTAMP_LTZ(3) column, or for a"
                + " computed column such as "
                + time
                + " AS TO_TIMESTAMP_LTZ(epoch_millis_column, 3)");
      }
      eventTime = new EventTimeColumn(column, time, EventTimeColumn.Reading.TIMESTAMP, null);
    }
    SqlTable table =
        new SqlTable(
            create.name(),
            create.columns(),
            eventTime,
            time,
            timeColumnIsRowtime,
            SessionTimeZone.UTC);
    return new TableDefinition(table, create.watermarkDelay(), create.options());
  }

  /**
   * The table {@code name} of a {@code PCollection<Row>} of {@code schema}, whose rows' event times
   * are their elements' timestamps: {@code rowtime} is each element's timestamp.
   *
   * @throws InvalidQueryException when a field has a type {@code sql} does not read, or is named
   *     {@code rowtime}
   */
  public static SqlTable ofRows(String name, Schema schema) throws InvalidQueryException {
    List<DeclaredColumn> columns = new ArrayList<>();
    for (Schema.Field field : schema.getFields()) {
      ColumnType type = ColumnType.of(field.getType());
      if (type == null || field.getName().equalsIgnoreCase(ROWTIME)) {
        throw InvalidQueryException.refused(
            "field '"
                + field.getName()
                + "' ("
                + field.getType().getTypeName()
                + "): a field is BIGINT, INTEGER, SMALLINT, TINYINT, DOUBLE, FLOAT, DECIMAL,"
                + " VARCHAR, BOOLEAN, TIMESTAMP or DATE, and not named rowtime, which is each"
                + " element's timestamp");
      }
      columns.add(new DeclaredColumn(field.getName(), type, field.getType().getNullable(), 0));
    }
    return new SqlTable(name, columns, null, ROWTIME, false, SessionTimeZone.UTC);
  }

  /**
   * The rows a window Top-N ranked, as a condition of its outer {@code WHERE} reads them: columns
   * {@code names} of types {@code types}, each nullable, local times in {@code timeZone}. The
   * planner's event-time column is named so that no ranked column is it.
   */
  static SqlTable ofRankedRows(
      String name, List<String> names, List<ColumnType> types, SessionTimeZone timeZone) {
    List<DeclaredColumn> columns = new ArrayList<>();
    for (int c = 0; c < names.size(); c++) {
      columns.add(new DeclaredColumn(names.get(c), types.get(c), true, 0));
    }
    return new SqlTable(name, columns, null, name + "_time", false, timeZone);
  }

  /**
   * The same table with its {@code TIMESTAMP} values, its event time among them, local dates and
   * times in {@code zone}, as Flink SQL's {@code table.local-time-zone} makes them; by default they
   * are in UTC. A query over it whose tumbling windows would start at another local time than
   * Flink's is refused when planned ({@link SessionTimeZone}).
   */
  public SqlTable withTimeZone(ZoneId zone) {
    return new SqlTable(
        name, recordColumns, eventTime, rowtime, timeColumnIsRowtime, SessionTimeZone.of(zone));
  }

  /** The zone in which the query's {@code TIMESTAMP} values are local dates and times. */
  SessionTimeZone timeZone() {
    return timeZone;
  }

  /** The name a query gives the table. */
  public String name() {
    return name;
  }

  /**
   * The record's columns that the query sees, in the order of the schema: all of them but the event
   * time's when that is the event-time column itself ({@code WATERMARK FOR ts} on a {@code
   * TIMESTAMP} column {@code ts}).
   */
  public List<String> columns() {
    return queryRecordColumns().stream().map(DeclaredColumn::name).toList();
  }

  /**
   * The name the query gives the event time: {@code rowtime}, or the {@code WATERMARK}'s column.
   */
  public String rowtime() {
    return rowtime;
  }

  List<ColumnType> types() {
    return queryRecordColumns().stream().map(DeclaredColumn::type).toList();
  }

  /** The query's record columns, which {@link #columns()} names. */
  List<DeclaredColumn> queryRecordColumns() {
    if (!timeColumnIsRowtime || eventTime == null) {
      return recordColumns;
    }
    List<DeclaredColumn> visible = new ArrayList<>(recordColumns);
    visible.remove(eventTime.column());
    return visible;
  }

  /** Every column of a record, in its order, the event time's own among them. */
  List<DeclaredColumn> recordColumns() {
    return recordColumns;
  }

  /** Whether the event time's own column is the event-time column, and not a query column. */
  boolean timeColumnIsRowtime() {
    return timeColumnIsRowtime;
  }

  /**
   * Where the event time comes from; null for a table of rows whose timestamps are their event
   * times.
   */
  @Nullable EventTimeColumn eventTime() {
    return eventTime;
  }

  /** The columns a query sees: the record's, then the event time. */
  List<String> queryColumns() {
    List<String> all = new ArrayList<>(columns());
    all.add(rowtime);
    return all;
  }

  /** The Beam schema of the columns a query sees, for Beam SQL's planner. */
  Schema querySchema() {
    Schema.Builder schema = Schema.builder();
    for (DeclaredColumn column : queryRecordColumns()) {
      schema.addField(
          Schema.Field.of(column.name(), column.type().beamType()).withNullable(column.nullable()));
    }
    return schema.addDateTimeField(rowtime).build();
  }

  /** The table as Beam SQL's planner sees it: a schema, and a stream nobody reads through it. */
  BeamSqlTable plannerTable() {
    return new PlannerTable(querySchema());
  }

  /** The table as the planner knows it: only its schema; the pane engine reads the records. */
  private static final class PlannerTable extends BaseBeamTable {
    private final Schema schema;

    PlannerTable(Schema schema) {
      this.schema = schema;
    }

    @Override
    public PCollection<Row> buildIOReader(PBegin begin) {
      throw new UnsupportedOperationException("tidemark reads the table's records itself");
    }

    @Override
    public POutput buildIOWriter(PCollection<Row> input) {
      throw new UnsupportedOperationException("a query's table is its input, never its output");
    }

    @Override
    public PCollection.IsBounded isBounded() {
      return PCollection.IsBounded.UNBOUNDED;
    }

    @Override
    public Schema getSchema() {
      return schema;
    }
  }
}
