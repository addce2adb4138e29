package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.sql.SqlTable;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * A Flink {@code CREATE TABLE}'s {@code WITH} options and watermark become {@code sql}'s own
 * options, or are refused in one line naming the option.
 */
class TableDdlTest {

  private static final String COLUMNS =
      "CREATE TABLE requests (ts BIGINT, `user` STRING, url STRING,"
          + " rowtime AS TO_TIMESTAMP_LTZ(ts, 3),"
          + " WATERMARK FOR rowtime AS rowtime - INTERVAL '5' SECOND)";

  private static SqlPipeline.Options options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(SqlPipeline.Options.class);
  }

  @Test
  void aKafkaTablesOptionsAreTheSourceTheFormatAndTheOutOfOrderness() {
    SqlPipeline.Options options = options();
    SqlTable table =
        TableDdl.apply(
            options,
            COLUMNS
                + " WITH ('connector' = 'kafka', 'topic' = 'requests',"
                + " 'properties.bootstrap.servers' = 'broker:9092',"
                + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'csv')");

    assertThat(table.name(), equalTo("requests"));
    assertThat(table.columns(), contains("ts", "user", "url"));
    assertThat(table.rowtime(), equalTo("rowtime"));
    assertThat(options.getSource(), equalTo("kafka://broker:9092/requests"));
    assertThat(options.getFormat(), equalTo("csv"));
    assertThat(options.getMaxOutOfOrderness(), equalTo("5000ms"));
  }

  @Test
  void aFilesystemTableReadsItsPath() {
    SqlPipeline.Options options = options();
    TableDdl.apply(
        options, COLUMNS + " WITH ('connector' = 'filesystem', 'path' = '/data/requests.json')");

    assertThat(options.getSource(), equalTo("file:/data/requests.json"));
    assertThat(options.getFormat(), equalTo("json"));
  }

  @Test
  void eachOptionSqlCannotHonourIsOneLineNamingIt() {
    assertThat(
        refusal(
            options(),
            " WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b:1',"
                + " 'scan.startup.mode' = 'latest-offset')"),
        equalTo(
            "--ddl: 'scan.startup.mode' = 'latest-offset': give --startFrom=latest instead, which"
                + " sql reads"));
    assertThat(
        refusal(options(), " WITH ('connector' = 'kafka', 'topic' = 't')"),
        equalTo("--ddl: the 'kafka' connector needs the option 'properties.bootstrap.servers'"));
    assertThat(
        refusal(
            options(),
            " WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b:1',"
                + " 'properties.group.id' = 'g')"),
        equalTo(
            "--ddl: the option 'properties.group.id' is not one sql takes; it takes 'connector'"
                + " ('kafka' with 'topic', 'properties.bootstrap.servers' and"
                + " 'scan.startup.mode', or 'filesystem' with 'path') and 'format' ('json' or"
                + " 'csv'); Kafka's client properties go in --kafkaProperties"));
    assertThat(
        refusal(
            options("--source=file:/other.json"),
            " WITH ('connector' = 'filesystem', 'path' = '/a')"),
        equalTo("--ddl says file:/a and --source says file:/other.json; give one of them"));
    assertThat(
        refusal(options("--table=other"), ""),
        equalTo(
            "--ddl and --table both declare the table; give the columns, event time and name in"
                + " one of them"));
  }

  @Test
  void aTableWithoutAWatermarkHasNoEventTime() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () -> TableDdl.apply(options(), "CREATE TABLE r (ts TIMESTAMP(3), u STRING)"));
    assertThat(
        e.getMessage(),
        equalTo(
            "--ddl: the table has no WATERMARK, so no event time: add one, such as WATERMARK FOR"
                + " rowtime AS rowtime - INTERVAL '2' SECOND, for a TIMESTAMP column or for"
                + " rowtime AS TO_TIMESTAMP_LTZ(epoch_millis_column, 3)"));
  }

  private static String refusal(SqlPipeline.Options options, String with) {
    return assertThrows(ConfigurationException.class, () -> TableDdl.apply(options, COLUMNS + with))
        .getMessage();
  }
}
