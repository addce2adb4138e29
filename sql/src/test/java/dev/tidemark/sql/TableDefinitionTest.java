package dev.tidemark.sql;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.model.Event;
import java.time.ZoneId;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A Flink {@code CREATE TABLE} read by Flink's own parser: where each record's event time comes
 * from, the watermark's delay, and one line for each part {@code sql} does not take; and Flink's
 * string and time functions where Flink returns {@code NULL}.
 */
class TableDefinitionTest {

  @Test
  void theEventTimeIsReadAsItsComputedColumnSays() throws Exception {
    TableDefinition seconds =
        SqlTable.ofDdl(
            "CREATE TABLE r (ts BIGINT, u STRING, rowtime AS TO_TIMESTAMP_LTZ(ts, 0),"
                + " WATERMARK FOR rowtime AS rowtime)");
    Event event = json(seconds.table(), "{\"ts\":1700000000,\"u\":\"a\"}");
    assertThat(event.eventTime().getMillis(), equalTo(1700000000000L));
    assertThat(seconds.watermarkDelay(), equalTo(Duration.ZERO));

    TableDefinition formatted =
        SqlTable.ofDdl(
            "CREATE TABLE r (seen STRING, u STRING,"
                + " rowtime AS TO_TIMESTAMP(seen, 'dd/MM/yyyy HH:mm:ss'),"
                + " WATERMARK FOR rowtime AS rowtime - INTERVAL '1.5' SECOND)");
    SqlTable shanghai = formatted.table().withTimeZone(ZoneId.of("Asia/Shanghai"));
    Event local = json(shanghai, "{\"seen\":\"15/11/2023 06:13:20\",\"u\":\"a\"}");
    // 06:13:20 in Shanghai is 22:13:20 UTC the day before.
    assertThat(local.eventTime().getMillis(), equalTo(1700000000000L));
    assertThat(formatted.watermarkDelay(), equalTo(Duration.millis(1500)));

    TableDefinition column =
        SqlTable.ofDdl(
            "CREATE TABLE r (ts TIMESTAMP(3), u STRING, WATERMARK FOR ts AS ts - INTERVAL '2'"
                + " SECOND)");
    assertThat(column.table().columns(), contains("u"));
    assertThat(column.table().rowtime(), equalTo("ts"));
    assertThat(
        json(column.table(), "{\"ts\":\"2023-11-14 22:13:20\",\"u\":\"a\"}")
            .eventTime()
            .getMillis(),
        equalTo(1700000000000L));
  }

  @Test
  void eachPartSqlDoesNotTakeIsOneLineNamingIt() {
    assertThat(
        refusal("CREATE TABLE r (ts BIGINT, u STRING, PRIMARY KEY (u) NOT ENFORCED)"),
        startsWith("the table definition's a PRIMARY KEY or another constraint is not supported"));
    assertThat(
        refusal("CREATE TABLE r (ts BIGINT, `offset` BIGINT METADATA VIRTUAL)"),
        startsWith("the table definition's the metadata column offset is not supported"));
    assertThat(
        refusal(
            "CREATE TABLE r (ts BIGINT, u STRING, up AS UPPER(u), rt AS TO_TIMESTAMP_LTZ(ts, 3),"
                + " WATERMARK FOR rt AS rt)"),
        startsWith("the computed column up AS UPPER(`u`): a computed column is only the event"));
    assertThat(
        refusal("CREATE TABLE r (ts STRING, u STRING, WATERMARK FOR ts AS ts)"),
        startsWith("WATERMARK FOR ts: the watermark is for a TIMESTAMP(3) or TIMESTAMP_LTZ(3)"));
    assertThat(
        refusal("CREATE TABLE r (ts BIGINT, u MAP<STRING, INT>)"),
        startsWith("column 'u' has the type MAP< STRING, INTEGER >; a column is STRING,"));
    assertThat(
        refusal("CREATE TABLE r (ts BIGINT, user STRING)"),
        equalTo(
            "the table definition does not parse at line 1, column 28: Encountered \"user\";"
                + " 'user' is a reserved word in SQL: write it `user`"));
  }

  @Test
  void flinksFunctionsAreNullWhereFlinksAre() {
    assertThat(FlinkStringFunctions.splitIndex("a,b,,c", ",", 2), equalTo(""));
    assertThat(FlinkStringFunctions.splitIndex("a,b", ",", 2), nullValue());
    assertThat(FlinkStringFunctions.splitIndex("a,b", ",", -1), nullValue());
    assertThat(FlinkStringFunctions.splitIndex(null, ",", 0), nullValue());
    assertThat(FlinkStringFunctions.regexpExtract("user-42", "\\d+"), equalTo("42"));
    assertThat(
        FlinkStringFunctions.regexpExtractGroup("user-42", "(\\w+)-(\\d+)", 2), equalTo("42"));
    assertThat(FlinkStringFunctions.regexpExtractGroup("user-42", "(\\w+)-(\\d+)", 3), nullValue());
    assertThat(FlinkStringFunctions.regexpExtract("user", "\\d+"), nullValue());
    assertThat(FlinkTimeFunctions.toTimestamp("not a time"), nullValue());
    assertThat(
        FlinkTimeFunctions.toTimestampIn("2023-11-14", "yyyy-MM-dd").toLocalDateTime().toString(),
        equalTo("2023-11-14T00:00"));
  }

  private static String refusal(String ddl) {
    return assertThrows(InvalidQueryException.class, () -> SqlTable.ofDdl(ddl)).getMessage();
  }

  private static Event json(SqlTable table, String record) throws Exception {
    String query =
        "SELECT u, COUNT(*) AS n FROM r GROUP BY TUMBLE("
            + table.rowtime()
            + ", INTERVAL '1'"
            + " SECOND), u";
    return SqlRecordFormat.of(WindowedQuery.plan(table, query), SqlRecordFormat.Shape.JSON)
        .parse(record);
  }
}
