package dev.tidemark.sql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.flink.sql.parser.ddl.SqlCreateTable;
import org.apache.flink.sql.parser.ddl.SqlTableColumn;
import org.apache.flink.sql.parser.ddl.SqlTableOption;
import org.apache.flink.sql.parser.ddl.SqlWatermark;
import org.apache.flink.sql.parser.impl.FlinkSqlParserImpl;
import org.apache.flink.sql.parser.validate.FlinkSqlConformance;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * A Flink SQL {@code CREATE TABLE}, read by Flink SQL's own parser ({@code flink-sql-parser}, with
 * Flink's lexical rules: backticks, names as written): its record columns with Flink's types, the
 * column its {@code WATERMARK} is for and how that column's time is read, the watermark's delay,
 * and its {@code WITH} options. Everything else a {@code CREATE TABLE} may hold (a computed column
 * other than the event time's, a metadata column, a key, {@code LIKE}, {@code PARTITIONED BY}) is
 * refused in one line that names it.
 */
final class FlinkCreateTable {

  /** The types a column may have, for a refusal. */
  static final String COLUMN_TYPES =
      "STRING, VARCHAR(n), CHAR(n), TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE,"
          + " DECIMAL(p, s), BOOLEAN, TIMESTAMP(3), TIMESTAMP_LTZ(3) or DATE";

  private static final String EVENT_TIME_COLUMNS =
      "TO_TIMESTAMP_LTZ(column, 3), TO_TIMESTAMP_LTZ(column, 0) or TO_TIMESTAMP(column [, format])";

  private final String name;
  private final List<DeclaredColumn> columns = new ArrayList<>();
  private final Map<String, String> options = new LinkedHashMap<>();
  private @Nullable String timeAttribute;
  private @Nullable EventTimeColumn computedTime;
  private @Nullable Duration watermarkDelay;

  private FlinkCreateTable(String name) {
    this.name = name;
  }

  /** The table's name, the last part of a qualified one. */
  String name() {
    return name;
  }

  /** The record's columns, in their order. */
  List<DeclaredColumn> columns() {
    return columns;
  }

  /** The {@code WITH} options, in their order. */
  Map<String, String> options() {
    return options;
  }

  /** The column of {@code WATERMARK FOR}, its event time; null when there is no watermark. */
  @Nullable String timeAttribute() {
    return timeAttribute;
  }

  /** How the event time is read, when it is a computed column; null otherwise. */
  @Nullable EventTimeColumn computedTime() {
    return computedTime;
  }

  /** How far the watermark lags the event time; null when there is no watermark. */
  @Nullable Duration watermarkDelay() {
    return watermarkDelay;
  }

  /**
   * {@code ddl} read.
   *
   * @throws InvalidQueryException when it does not parse, or holds what {@code sql} refuses
   */
  static FlinkCreateTable parse(String ddl) throws InvalidQueryException {
    SqlNode statement;
    try {
      statement = SqlParser.create(ddl, config()).parseStmt();
    } catch (SqlParseException e) {
      throw InvalidQueryException.refused(
          "the table definition does not parse at line "
              + e.getPos().getLineNum()
              + ", column "
              + e.getPos().getColumnNum()
              + ": "
              + PlanningErrors.withoutPosition(PlanningErrors.firstLine(e.getMessage()))
              + ReservedWords.hintInFlinkSql(ddl, firstWords(ddl.substring(ddl.indexOf('(') + 1))));
    }
    if (!(statement instanceof SqlCreateTable create)) {
      throw InvalidQueryException.refused(
          "the table definition is not a CREATE TABLE: " + PlanningErrors.firstLine(ddl));
    }
    return read(create);
  }

  /**
   * The columns of {@code schema}, a column list such as {@code t BIGINT, i STRING}, read as the
   * body of a {@code CREATE TABLE}.
   *
   * @throws InvalidQueryException when it does not parse, or holds more than columns
   */
  static FlinkCreateTable columnList(String schema) throws InvalidQueryException {
    SqlNode statement;
    try {
      // The list on a line of its own, so that an error's column is the list's own.
      statement = SqlParser.create("CREATE TABLE t (\n" + schema + "\n)", config()).parseStmt();
    } catch (SqlParseException e) {
      throw notAColumnList(
          schema,
          PlanningErrors.withoutPosition(PlanningErrors.firstLine(e.getMessage()))
              + " at column "
              + e.getPos().getColumnNum()
              + ReservedWords.hintInFlinkSql(schema, firstWords(schema)));
    }
    FlinkCreateTable table = read((SqlCreateTable) statement);
    if (table.timeAttribute != null || table.computedTime != null) {
      throw notAColumnList(
          schema, "a computed column or a WATERMARK is part of a table definition, in --ddl");
    }
    return table;
  }

  private static InvalidQueryException notAColumnList(String schema, String why) {
    return InvalidQueryException.refused(
        "'" + schema + "' is not a column list such as 't BIGINT, i STRING': " + why);
  }

  /** The first word of each comma-separated part of {@code text}: its column names, roughly. */
  private static List<String> firstWords(String text) {
    List<String> words = new ArrayList<>();
    for (String part : text.split("[,(]")) {
      String[] split = part.strip().split("\\s+", 2);
      if (!split[0].isEmpty()) {
        words.add(split[0]);
      }
    }
    return words;
  }

  private static SqlParser.Config config() {
    return SqlParser.config()
        .withParserFactory(FlinkSqlParserImpl.FACTORY)
        .withQuoting(Quoting.BACK_TICK)
        .withUnquotedCasing(Casing.UNCHANGED)
        .withQuotedCasing(Casing.UNCHANGED)
        .withConformance(FlinkSqlConformance.DEFAULT)
        .withIdentifierMaxLength(256);
  }

  private static FlinkCreateTable read(SqlCreateTable create) throws InvalidQueryException {
    FlinkCreateTable table = new FlinkCreateTable(last(create.getTableName()));
    if (create.getClass() != SqlCreateTable.class) {
      throw refused("CREATE TABLE ... LIKE or AS");
    }
    if (!create.getPartitionKeyList().isEmpty()) {
      throw refused("PARTITIONED BY");
    }
    if (create.getFullConstraints().size() > 0) {
      throw refused("a PRIMARY KEY or another constraint");
    }
    List<SqlTableColumn.SqlComputedColumn> computed = new ArrayList<>();
    for (SqlNode node : create.getColumnList()) {
      if (node instanceof SqlTableColumn.SqlRegularColumn column) {
        table.columns.add(declared(column.getName().getSimple(), column.getType()));
      } else if (node instanceof SqlTableColumn.SqlComputedColumn column) {
        computed.add(column);
      } else {
        throw refused("the metadata column " + ((SqlTableColumn) node).getName());
      }
    }
    for (SqlNode node : create.getPropertyList()) {
      SqlTableOption option = (SqlTableOption) node;
      table.options.put(option.getKeyString(), option.getValueString());
    }
    if (create.getWatermark().isPresent()) {
      table.readWatermark(create.getWatermark().get());
    }
    for (SqlTableColumn.SqlComputedColumn column : computed) {
      table.readComputed(column);
    }
    return table;
  }

  private static DeclaredColumn declared(String name, SqlDataTypeSpec spec)
      throws InvalidQueryException {
    String typeName = spec.getTypeNameSpec().getTypeName().getSimple().toUpperCase(Locale.ROOT);
    ColumnType type =
        switch (typeName) {
          case "BIGINT" -> ColumnType.BIGINT;
          case "INTEGER", "INT" -> ColumnType.INTEGER;
          case "SMALLINT" -> ColumnType.SMALLINT;
          case "TINYINT" -> ColumnType.TINYINT;
          case "DOUBLE" -> ColumnType.DOUBLE;
          case "FLOAT", "REAL" -> ColumnType.FLOAT;
          case "DECIMAL", "DEC", "NUMERIC" -> ColumnType.DECIMAL;
          case "VARCHAR", "CHAR", "STRING" -> ColumnType.VARCHAR;
          case "BOOLEAN" -> ColumnType.BOOLEAN;
          case "TIMESTAMP", "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> ColumnType.TIMESTAMP;
          case "DATE" -> ColumnType.DATE;
          default ->
              throw InvalidQueryException.refused(
                  "column '" + name + "' has the type " + spec + "; a column is " + COLUMN_TYPES);
        };
    // Flink's DECIMAL is DECIMAL(10, 0).
    int scale =
        spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic
            ? Math.max(0, basic.getScale())
            : 0;
    Boolean nullable = spec.getNullable();
    return new DeclaredColumn(name, type, nullable == null || nullable, scale);
  }

  private void readWatermark(SqlWatermark watermark) throws InvalidQueryException {
    timeAttribute = last(watermark.getEventTimeColumnName());
    SqlNode strategy = watermark.getWatermarkStrategy();
    if (strategy instanceof SqlIdentifier same && last(same).equals(timeAttribute)) {
      watermarkDelay = Duration.ZERO;
      return;
    }
    if (strategy instanceof SqlBasicCall minus
        && minus.getKind() == SqlKind.MINUS
        && minus.operand(0) instanceof SqlIdentifier column
        && last(column).equals(timeAttribute)
        && minus.operand(1) instanceof SqlIntervalLiteral interval
        && interval.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
      watermarkDelay =
          Duration.millis(
              SqlParserUtil.intervalToMillis(
                  interval.getValueAs(SqlIntervalLiteral.IntervalValue.class)));
      return;
    }
    throw InvalidQueryException.refused(
        "WATERMARK FOR "
            + timeAttribute
            + " AS "
            + strategy
            + ": sql takes WATERMARK FOR "
            + timeAttribute
            + " AS "
            + timeAttribute
            + " - INTERVAL '2' SECOND (any day-to-second interval), or AS "
            + timeAttribute);
  }

  private void readComputed(SqlTableColumn.SqlComputedColumn column) throws InvalidQueryException {
    String name = column.getName().getSimple();
    SqlNode expression = column.getExpr();
    if (!name.equals(timeAttribute)) {
      throw InvalidQueryException.refused(
          "the computed column "
              + name
              + " AS "
              + expression
              + ": a computed column is only the event time of the WATERMARK, "
              + EVENT_TIME_COLUMNS
              + "; compute other values in the query");
    }
    computedTime = eventTime(name, expression);
  }

  private EventTimeColumn eventTime(String name, SqlNode expression) throws InvalidQueryException {
    if (expression instanceof SqlCall call
        && call.operandCount() >= 1
        && call.operand(0) instanceof SqlIdentifier source) {
      String function = call.getOperator().getName().toUpperCase(Locale.ROOT);
      int column = columnIndex(last(source));
      @Nullable SqlNode second = call.operandCount() == 2 ? call.operand(1) : null;
      if (function.equals("TO_TIMESTAMP_LTZ")
          && second instanceof SqlLiteral precision
          && column >= 0
          && isWhole(columns.get(column).type())) {
        int digits = precision.intValue(true);
        if (digits == 3 || digits == 0) {
          return new EventTimeColumn(
              column,
              columns.get(column).name(),
              digits == 3
                  ? EventTimeColumn.Reading.TIMESTAMP
                  : EventTimeColumn.Reading.EPOCH_SECONDS,
              null);
        }
      }
      if (function.equals("TO_TIMESTAMP")
          && column >= 0
          && columns.get(column).type() == ColumnType.VARCHAR
          && call.operandCount() <= 2) {
        if (second == null) {
          return new EventTimeColumn(
              column, columns.get(column).name(), EventTimeColumn.Reading.TIMESTAMP, null);
        }
        if (second instanceof SqlLiteral format) {
          return new EventTimeColumn(
              column,
              columns.get(column).name(),
              EventTimeColumn.Reading.FORMATTED,
              format.getValueAs(String.class));
        }
      }
    }
    throw InvalidQueryException.refused(
        "the event time " + name + " AS " + expression + ": sql takes " + EVENT_TIME_COLUMNS);
  }

  private static boolean isWhole(ColumnType type) {
    return type == ColumnType.BIGINT || type == ColumnType.INTEGER;
  }

  /** Where column {@code name} is among the record's columns, or -1. */
  int columnIndex(String name) {
    for (int c = 0; c < columns.size(); c++) {
      if (columns.get(c).name().equals(name)) {
        return c;
      }
    }
    return -1;
  }

  private static String last(SqlIdentifier identifier) {
    return identifier.names.get(identifier.names.size() - 1);
  }

  private static InvalidQueryException refused(String construct) {
    return InvalidQueryException.refused(
        "the table definition's "
            + construct
            + " is not supported; sql takes CREATE TABLE name (columns, [an event-time column"
            + " AS "
            + EVENT_TIME_COLUMNS
            + ",] WATERMARK FOR ...) [WITH (...)]");
  }
}
