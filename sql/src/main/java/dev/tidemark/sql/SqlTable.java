package dev.tidemark.sql;

import java.io.Serializable;
import java.io.StringReader;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.extensions.sql.impl.parser.impl.BeamSqlParserImpl;
import org.apache.beam.sdk.extensions.sql.impl.parser.impl.BeamSqlParserImplConstants;
import org.apache.beam.sdk.extensions.sql.impl.parser.impl.Token;
import org.apache.beam.sdk.extensions.sql.meta.BaseBeamTable;
import org.apache.beam.sdk.extensions.sql.meta.BeamSqlTable;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.avatica.util.Casing;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParseException;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParser;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * The table a query reads: its name, the record's columns with their SQL types, and {@code
 * rowtime}, the {@code TIMESTAMP} column that holds each row's event time, read from one of the
 * columns. The columns are never null: a record that lacks one is a dead letter.
 *
 * <pre>{@code
 * SqlTable events = SqlTable.of("events", "t BIGINT, i VARCHAR, op VARCHAR", "t");
 * }</pre>
 */
public final class SqlTable implements Serializable {

  private static final long serialVersionUID = 1L;

  /** {@link #eventTimeColumn()} of a table whose event times are its elements' timestamps. */
  static final int ELEMENT_TIMESTAMP = -1;

  /** The column that holds each row's event time, as Flink's and Beam's SQL call it. */
  public static final String ROWTIME = "rowtime";

  private final String name;
  private final List<String> columns;
  private final List<ColumnType> types;
  private final int eventTimeColumn;
  private final SessionTimeZone timeZone;

  private SqlTable(
      String name,
      List<String> columns,
      List<ColumnType> types,
      int eventTimeColumn,
      SessionTimeZone timeZone) {
    this.name = name;
    this.columns = List.copyOf(columns);
    this.types = List.copyOf(types);
    this.eventTimeColumn = eventTimeColumn;
    this.timeZone = timeZone;
  }

  /**
   * The table {@code name} whose columns {@code schema} declares as a SQL column list ({@code 't
   * BIGINT, i VARCHAR'}, read by Beam SQL's DDL parser), with each row's event time in column
   * {@code eventTime}: epoch milliseconds, or an ISO-8601 instant.
   *
   * @throws InvalidQueryException when the list does not parse, names a type {@code sql} does not
   *     read, names {@code rowtime}, or lacks {@code eventTime}
   */
  public static SqlTable of(String name, String schema, String eventTime)
      throws InvalidQueryException {
    Schema declared = declaredColumns(schema);
    List<String> columns = new ArrayList<>();
    List<ColumnType> types = new ArrayList<>();
    for (Schema.Field field : declared.getFields()) {
      ColumnType type = ColumnType.of(field.getType());
      if (type == null) {
        throw InvalidQueryException.refused(
            "column '"
                + field.getName()
                + "' has the type "
                + field.getType().getTypeName()
                + "; a column is BIGINT, INTEGER, DOUBLE, FLOAT, DECIMAL, VARCHAR, BOOLEAN or"
                + " TIMESTAMP");
      }
      if (field.getName().equalsIgnoreCase(ROWTIME)) {
        throw InvalidQueryException.refused(
            "column 'rowtime' is the event time the query reads from the event-time column;"
                + " give the record's own column another name");
      }
      columns.add(field.getName());
      types.add(type);
    }
    int eventTimeColumn = columns.indexOf(eventTime);
    if (eventTimeColumn < 0) {
      throw new InvalidQueryException(
          "the event-time column '" + eventTime + "' is not in the schema",
          0,
          0,
          eventTime,
          columns);
    }
    ColumnType timeType = types.get(eventTimeColumn);
    if (timeType != ColumnType.BIGINT && timeType != ColumnType.TIMESTAMP) {
      throw InvalidQueryException.refused(
          "the event-time column '"
              + eventTime
              + "' is a "
              + timeType
              + "; it holds epoch milliseconds (BIGINT) or an instant (TIMESTAMP)");
    }
    return new SqlTable(name, columns, types, eventTimeColumn, SessionTimeZone.UTC);
  }

  /**
   * The table {@code name} of a {@code PCollection<Row>} of {@code schema}, whose rows' event times
   * are their elements' timestamps: {@code rowtime} is each element's timestamp.
   *
   * @throws InvalidQueryException when a field has a type {@code sql} does not read, or is named
   *     {@code rowtime}
   */
  public static SqlTable ofRows(String name, Schema schema) throws InvalidQueryException {
    List<String> columns = new ArrayList<>();
    List<ColumnType> types = new ArrayList<>();
    for (Schema.Field field : schema.getFields()) {
      ColumnType type = ColumnType.of(field.getType());
      if (type == null || field.getName().equalsIgnoreCase(ROWTIME)) {
        throw InvalidQueryException.refused(
            "field '"
                + field.getName()
                + "' ("
                + field.getType().getTypeName()
                + "): a field is BIGINT, INTEGER, DOUBLE, FLOAT, DECIMAL, VARCHAR, BOOLEAN or"
                + " TIMESTAMP, and not named rowtime, which is each element's timestamp");
      }
      columns.add(field.getName());
      types.add(type);
    }
    return new SqlTable(name, columns, types, ELEMENT_TIMESTAMP, SessionTimeZone.UTC);
  }

  /**
   * The columns {@code schema} declares, parsed by Beam SQL's DDL parser as the column list of its
   * {@code CREATE EXTERNAL TABLE}, with the lexical rules of Beam SQL's connections (back-quoted
   * identifiers, names kept as written). Only the parser: a whole Beam SQL environment, which its
   * DDL statements run in, is far more than a list of names and types needs.
   */
  private static Schema declaredColumns(String schema) throws InvalidQueryException {
    BeamSqlParserImpl parser =
        (BeamSqlParserImpl) BeamSqlParserImpl.FACTORY.getParser(new StringReader(schema));
    parser.setTabSize(1);
    parser.setQuotedCasing(Casing.UNCHANGED);
    parser.setUnquotedCasing(Casing.UNCHANGED);
    parser.setIdentifierMaxLength(SqlParser.DEFAULT_IDENTIFIER_MAX_LENGTH);
    parser.setConformance(SqlConformanceEnum.DEFAULT);
    parser.switchTo(SqlAbstractParserImpl.LexicalState.BTID);
    List<Schema.Field> fields;
    try {
      fields = parser.FieldListBody();
    } catch (Exception e) {
      SqlParseException parse = parser.normalizeException(e);
      throw notAColumnList(
          schema,
          PlanningErrors.withoutPosition(parse.getMessage())
              + " at column "
              + parse.getPos().getColumnNum()
              + ReservedWords.hint(schema, firstWords(schema)));
    }
    Token next = parser.getToken(1);
    if (next.kind != BeamSqlParserImplConstants.EOF) {
      throw notAColumnList(
          schema,
          "Encountered \""
              + next.image
              + "\" at column "
              + next.beginColumn
              + ReservedWords.hint(schema, firstWords(schema)));
    }
    try {
      return fields.stream().collect(Schema.toSchema());
    } catch (IllegalArgumentException e) {
      throw notAColumnList(schema, PlanningErrors.firstLine(e.getMessage()));
    }
  }

  /** The first word of each comma-separated part of {@code schema}: its column names, roughly. */
  private static List<String> firstWords(String schema) {
    List<String> words = new ArrayList<>();
    for (String part : schema.split(",")) {
      String[] split = part.strip().split("\\s+", 2);
      if (!split[0].isEmpty()) {
        words.add(split[0]);
      }
    }
    return words;
  }

  private static InvalidQueryException notAColumnList(String schema, String why) {
    return InvalidQueryException.refused(
        "'" + schema + "' is not a column list such as 't BIGINT, i VARCHAR': " + why);
  }

  /**
   * The same table with its {@code TIMESTAMP} values, {@code rowtime} among them, local dates and
   * times in {@code zone}, as Flink SQL's {@code table.local-time-zone} makes them; by default they
   * are in UTC. A query over it whose tumbling windows would start at another local time than
   * Flink's is refused when planned ({@link SessionTimeZone}).
   */
  public SqlTable withTimeZone(ZoneId zone) {
    return new SqlTable(name, columns, types, eventTimeColumn, SessionTimeZone.of(zone));
  }

  /** The zone in which the query's {@code TIMESTAMP} values are local dates and times. */
  SessionTimeZone timeZone() {
    return timeZone;
  }

  /** The name a query gives the table. */
  public String name() {
    return name;
  }

  /** The record's columns, in the order of the schema; {@code rowtime} is not one of them. */
  public List<String> columns() {
    return columns;
  }

  List<ColumnType> types() {
    return types;
  }

  /**
   * Where {@link #columns()} has the column with each row's event time; {@link #ELEMENT_TIMESTAMP}
   * for a table of rows whose timestamps are their event times.
   */
  int eventTimeColumn() {
    return eventTimeColumn;
  }

  /** The columns a query sees: the record's, then {@code rowtime}. */
  List<String> queryColumns() {
    List<String> all = new ArrayList<>(columns);
    all.add(ROWTIME);
    return all;
  }

  /** The Beam schema of the columns a query sees, none nullable, for Beam SQL's planner. */
  Schema querySchema() {
    Schema.Builder schema = Schema.builder();
    for (int i = 0; i < columns.size(); i++) {
      schema.addField(columns.get(i), types.get(i).beamType());
    }
    return schema.addDateTimeField(ROWTIME).build();
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
