package dev.tidemark.pipelines.config;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/**
 * The options that describe the records a SQL query reads, shared by {@code sql} and by {@code
 * explain}, which explains what {@code sql} does when it is given a query. Their defaults are S5's.
 */
public interface QueryOptions extends TimeZoneOptions {

  /** S5's columns, the default {@code --schema}. */
  String S5_SCHEMA = "t BIGINT, i VARCHAR, op VARCHAR";

  @Description(
      "The record's columns and their Flink SQL types, e.g. 't BIGINT, i STRING, op STRING'")
  @Default.String(S5_SCHEMA)
  String getSchema();

  void setSchema(String value);

  @Description(
      "The column with each record's event time (epoch milliseconds, ISO-8601 or yyyy-MM-dd"
          + " HH:mm:ss); the query reads it as rowtime")
  @Default.String("t")
  String getEventTime();

  void setEventTime(String value);

  @Description(
      "A Flink SQL CREATE TABLE, or @FILE to read it from a file: the table's name, columns,"
          + " event time and WATERMARK, its format and its connector, in place of --table,"
          + " --schema, --eventTime, --maxOutOfOrderness, --format and --source")
  String getDdl();

  void setDdl(String value);

  @Description("The name the query gives the records' table")
  @Default.String("_source_table")
  String getTable();

  void setTable(String value);
}
