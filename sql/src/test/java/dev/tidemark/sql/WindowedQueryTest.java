package dev.tidemark.sql;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** Plans queries and runs their parts on records by hand: the pane engine is not needed here. */
class WindowedQueryTest {

  static final String S5_QUERY =
      "select i as index_name, DATE_FORMAT(TUMBLE_END(rowtime, INTERVAL '1' SECOND),"
          + " 'yyyy-MM-dd HH:mm:ss') as event_time_log, op as op_type, count(op) as count_result"
          + " from _source_table group by TUMBLE(rowtime, INTERVAL '1' SECOND), i, op";

  static final String REQUESTS_QUERY =
      "SELECT host, status, TUMBLE_START(rowtime, INTERVAL '10' SECOND) AS ws, COUNT(*) AS n,"
          + " SUM(bytes) AS total, MAX(latency) AS worst\n"
          + "FROM requests\n"
          + "WHERE status <> 'health'\n"
          + "GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), host, status\n"
          + "HAVING COUNT(*) > 1";

  static SqlTable s5Table() throws InvalidQueryException {
    return SqlTable.of("_source_table", "t BIGINT, i VARCHAR, op VARCHAR", "t");
  }

  static SqlTable requestsTable() throws InvalidQueryException {
    return SqlTable.of(
        "requests",
        "ts TIMESTAMP, host VARCHAR, status VARCHAR, `bytes` BIGINT, latency DOUBLE NOT NULL",
        "ts");
  }

  @Test
  void s5QueryCountsPerIndexAndOpAndNamesTheWindowEnd() throws Exception {
    WindowedQuery query = WindowedQuery.plan(s5Table(), S5_QUERY);
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.JSON);
    List<Event> events =
        List.of(
            format.parse("{\"t\":1700000001000,\"i\":\"idx\",\"op\":\"es_sink\"}"),
            format.parse("{\"t\":1700000001500,\"i\":\"idx\",\"op\":\"es_sink\"}"),
            format.parse("{\"t\":1700000001999,\"i\":\"idx\",\"op\":\"es_sink\"}"));

    assertThat(query.windows().size().getMillis(), equalTo(1000L));
    assertThat(
        query.resultNames(), contains("index_name", "event_time_log", "op_type", "count_result"));
    assertThat(events.get(0).key().parts(), contains("idx", "es_sink"));
    assertThat(
        Arrays.asList(
            row(query, events.get(0).key(), pane(1700000001000L, 1000), aggregate(query, events))),
        contains("idx", "2023-11-14 22:13:22", "es_sink", 3L));
  }

  @Test
  void aQueryOfItsOwnFiltersSumsAndKeepsOnlyTheGroupsHavingMoreThanOneRow() throws Exception {
    WindowedQuery query = WindowedQuery.plan(requestsTable(), REQUESTS_QUERY);
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.CSV);
    Event a = format.parse("2023-11-14T22:13:21Z,web-1,200,100,0.5");
    Event b = format.parse("1700000005000,web-1,200,50,1.5");
    Event health = format.parse("1700000006000,web-1,health,7,9.0");
    Event lonely = format.parse("1700000006000,web-2,200,1,1.0");
    WindowPane pane = pane(1700000000000L, 10_000);

    assertThat(a.eventTime(), equalTo(new Instant(1700000001000L)));
    assertThat(query.isFiltered(health.key()), equalTo(true));
    assertThat(row(query, health.key(), pane, aggregate(query, List.of(health))), nullValue());
    assertThat(row(query, lonely.key(), pane, aggregate(query, List.of(lonely))), nullValue());
    Object[] row = row(query, a.key(), pane, aggregate(query, List.of(a, b)));
    assertThat(Arrays.asList(row), contains("web-1", "200", 1700000000000L, 2L, 150L, 1.5));
    assertThat(query.shown(2, row[2]), equalTo("2023-11-14 22:13:20.000"));
  }

  /**
   * A query whose rows only pick columns groups and aggregates the columns it picks, wherever the
   * record has them: {@code status} and {@code bytes}, not what stands at their places in the
   * picked row.
   */
  @Test
  void aQueryThatOnlyPicksColumnsGroupsAndAggregatesThoseColumns() throws Exception {
    WindowedQuery query =
        WindowedQuery.plan(
            requestsTable(),
            "SELECT status, SUM(`bytes`) AS total, MAX(latency) AS slowest FROM requests"
                + " GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), status");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.CSV);
    Event a = format.parse("1700000001000,web-1,500,100,0.5");
    Event b = format.parse("1700000002000,web-2,500,50,1.5");

    assertThat(a.key().parts(), contains("500"));
    assertThat(b.key(), equalTo(a.key()));
    assertThat(
        Arrays.asList(
            row(query, a.key(), pane(1700000000000L, 10_000), aggregate(query, List.of(a, b)))),
        contains("500", 150L, 1.5));
  }

  /**
   * A {@code COUNT} of a {@code GROUP BY} column carries nothing with its records (the key says
   * whether the column is {@code NULL}), and still counts as SQL does: the group's rows, and none
   * in the group whose column is {@code NULL}. {@code COUNT(DISTINCT)} of it, and a {@code COUNT}
   * of another column, carry their values.
   */
  @Test
  void aCountOfAGroupByColumnCountsFromTheKeyAndNoneWhereItIsNull() throws Exception {
    WindowedQuery query =
        WindowedQuery.plan(
            s5Table(),
            "SELECT op, COUNT(op) AS n, COUNT(*) AS rows_in, COUNT(DISTINCT op) AS d, COUNT(i) AS ni"
                + " FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.JSON);
    Event a = format.parse("{\"t\":1700000001000,\"i\":\"idx\",\"op\":\"es_sink\"}");
    Event b = format.parse("{\"t\":1700000001500,\"op\":\"es_sink\"}");
    Event c = format.parse("{\"t\":1700000001200,\"i\":\"idx\",\"op\":null}");
    Event d = format.parse("{\"t\":1700000001700,\"i\":\"idx\"}");
    WindowPane pane = pane(1700000001000L, 1000);

    // COUNT(DISTINCT op) and COUNT(i) carry op and i; COUNT(op) carries nothing.
    assertThat(a.columns(), contains("es_sink", "idx"));
    assertThat(
        Arrays.asList(row(query, a.key(), pane, aggregate(query, List.of(a, b)))),
        contains("es_sink", 2L, 2L, 1L, 1L));
    assertThat(c.key(), equalTo(d.key()));
    assertThat(
        Arrays.asList(row(query, c.key(), pane, aggregate(query, List.of(c, d)))),
        contains(null, 0L, 2L, 0L, 2L));
  }

  @Test
  void theWindowTableFunctionGroupsByWindowStartAndEnd() throws Exception {
    WindowedQuery query =
        WindowedQuery.plan(
            s5Table(),
            "SELECT window_start, window_end, i, COUNT(*) AS n, MIN(t) AS first_t, AVG(t) AS mean\n"
                + "FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND))\n"
                + "WHERE op = 'es_sink'\n"
                + "GROUP BY window_start, window_end, i");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.JSON);
    Event a = format.parse("{\"t\":1700000001000,\"i\":\"idx\",\"op\":\"es_sink\"}");
    Event b = format.parse("{\"t\":1700000001500,\"i\":\"idx\",\"op\":\"es_sink\"}");

    assertThat(query.windows().size().getMillis(), equalTo(1000L));
    assertThat(query.keyNames(), contains("i"));
    assertThat(
        Arrays.asList(
            row(query, a.key(), pane(1700000001000L, 1000), aggregate(query, List.of(a, b)))),
        contains(1700000001000L, 1700000002000L, "idx", 2L, 1700000001000L, 1700000001250L));
  }

  /**
   * {@code AVG} of a {@code DOUBLE} has a double's precision, the sum divided by the count as in
   * Flink SQL: Beam SQL's own gave 249.9142727, ten significant digits, for 2749.057 / 11.
   */
  @Test
  void theAverageOfDoublesHasADoublesPrecision() throws Exception {
    WindowedQuery query =
        WindowedQuery.plan(
            requestsTable(),
            "SELECT host, AVG(latency) AS mean FROM requests"
                + " GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), host");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.CSV);
    List<Event> events = new ArrayList<>();
    double sum = 0;
    for (int i = 0; i < 11; i++) {
      double latency = i == 10 ? 249.057 : 250;
      sum += latency;
      events.add(format.parse("1700000001000,web-1,200,1," + latency));
    }

    Object[] row =
        row(query, events.get(0).key(), pane(1700000000000L, 10_000), aggregate(query, events));
    assertThat(Arrays.asList(row), contains("web-1", sum / 11));
    assertThat(String.valueOf(row[1]), equalTo("249.9142727272727"));
  }

  /**
   * A column named with a reserved word: the schema that names it unquoted is refused with a line
   * that says so (before, only {@code Encountered "user"}), and a query that names it unquoted,
   * where SQL reads the {@code USER} function instead of the column, is refused rather than run
   * with the function's value; in backticks, both are taken.
   */
  @Test
  void aColumnNamedWithAReservedWordIsWrittenInBackticks() throws Exception {
    InvalidQueryException schema =
        assertThrows(
            InvalidQueryException.class,
            () -> SqlTable.of("requests", "ts BIGINT, user VARCHAR, url VARCHAR", "ts"));
    SqlTable table = SqlTable.of("requests", "ts BIGINT, `user` VARCHAR, url VARCHAR", "ts");
    String window = " GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), url";
    InvalidQueryException query =
        assertThrows(
            InvalidQueryException.class,
            () ->
                WindowedQuery.plan(
                    table, "SELECT url, COUNT(*) AS n FROM requests WHERE user = 'a'" + window));

    assertThat(
        schema.getMessage(),
        endsWith(
            "Encountered \"user\" at column 12; 'user' is a reserved word in SQL: write it `user`"));
    assertThat(
        query.getMessage(),
        equalTo(
            "'user' is a reserved word in SQL: unquoted, the query reads SQL's USER function, not"
                + " the column; write it `user`"));
    assertThat(
        WindowedQuery.plan(
                table, "SELECT url, COUNT(*) AS n FROM requests WHERE `user` = 'a user'" + window)
            .keyNames(),
        contains("url"));
  }

  @Test
  void aRecordThatDoesNotFitTheSchemaIsRefusedWithTheReason() throws Exception {
    SqlRecordFormat json =
        SqlRecordFormat.of(
            WindowedQuery.plan(requestsTable(), REQUESTS_QUERY), SqlRecordFormat.Shape.JSON);
    SqlRecordFormat csv =
        SqlRecordFormat.of(
            WindowedQuery.plan(requestsTable(), REQUESTS_QUERY), SqlRecordFormat.Shape.CSV);

    assertThat(
        assertThrows(
                BadRecordException.class,
                () -> json.parse("{\"ts\":1,\"host\":\"a\",\"status\":\"200\",\"bytes\":1}"))
            .getMessage(),
        equalTo("missing field 'latency'; the column is NOT NULL"));
    assertThat(
        assertThrows(
                BadRecordException.class,
                () -> json.parse("{\"ts\":1,\"host\":\"a\",\"latency\":null}"))
            .getMessage(),
        equalTo("field 'latency' is null; the column is NOT NULL"));
    assertThat(
        assertThrows(BadRecordException.class, () -> csv.parse(",a,200,1,1.0")).getMessage(),
        equalTo("field 'ts' is null; it holds the event time"));
    assertThat(
        assertThrows(
                BadRecordException.class,
                () ->
                    json.parse(
                        "{\"ts\":1700000000000,\"host\":\"a\",\"status\":\"200\",\"bytes\":\"many\",\"latency\":1}"))
            .getMessage(),
        equalTo("field 'bytes': 'many' is not a BIGINT"));
    assertThat(
        assertThrows(BadRecordException.class, () -> csv.parse("yesterday,a,200,1,1.0"))
            .getMessage(),
        equalTo(
            "field 'ts': 'yesterday' is not a TIMESTAMP"
                + " (epoch milliseconds, ISO-8601 or yyyy-MM-dd HH:mm:ss)"));
    assertThat(
        assertThrows(BadRecordException.class, () -> csv.parse("1700000000000,a,200")).getMessage(),
        containsString("expected 5 comma-separated columns"));
  }

  @Test
  void anExpressionThatFailsOnARecordMakesItADeadLetter() throws Exception {
    WindowedQuery query =
        WindowedQuery.plan(
            s5Table(),
            "SELECT i, COUNT(*) AS n FROM _source_table"
                + " GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i, 10 / (t - 1700000000000)");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.JSON);

    assertThat(
        assertThrows(
                BadRecordException.class,
                () -> format.parse("{\"t\":1700000000000,\"i\":\"a\",\"op\":\"x\"}"))
            .getMessage(),
        containsString("the query cannot evaluate this record"));
  }

  @Test
  void hopWindowsInBothFormsSlideAsFlinkSqlsHop() throws Exception {
    EventTimeWindowing minuteEverySecond =
        EventTimeWindowing.sliding(Duration.standardMinutes(1), Duration.standardSeconds(1));
    // (1) The group window: HOP(rowtime, slide, size), with HOP_START and HOP_END.
    WindowedQuery grouped =
        WindowedQuery.plan(
            s5Table(),
            "SELECT i, HOP_START(rowtime, INTERVAL '1' SECOND, INTERVAL '1' MINUTE) AS s,"
                + " HOP_END(rowtime, INTERVAL '1' SECOND, INTERVAL '1' MINUTE) AS e,"
                + " COUNT(*) AS c FROM _source_table"
                + " GROUP BY HOP(rowtime, INTERVAL '1' SECOND, INTERVAL '1' MINUTE), i");
    assertThat(grouped.windows().kind(), equalTo(minuteEverySecond.kind()));
    // (2) The table function: HOP(TABLE t, DESCRIPTOR(rowtime), slide, size).
    WindowedQuery function =
        WindowedQuery.plan(
            s5Table(),
            "SELECT i, window_start, window_end, COUNT(*) AS c FROM TABLE(HOP(TABLE"
                + " _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND, INTERVAL '1'"
                + " MINUTE)) GROUP BY window_start, window_end, i");
    assertThat(function.windows().kind(), equalTo(minuteEverySecond.kind()));
  }

  @Test
  void cumulateIsPlannedAsItsOwnWindowsWithItsStepAndSize() throws Exception {
    WindowedQuery query =
        WindowedQuery.plan(
            s5Table(),
            "SELECT window_start, window_end, i, COUNT(*) AS n FROM TABLE(CUMULATE(TABLE"
                + " _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND, INTERVAL '4' SECOND))"
                + " GROUP BY window_start, window_end, i");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.JSON);
    Event a = format.parse("{\"t\":1700000001000,\"i\":\"idx\",\"op\":\"es_sink\"}");

    assertThat(
        query.windows().kind(),
        equalTo(
            EventTimeWindowing.cumulating(Duration.standardSeconds(1), Duration.standardSeconds(4))
                .kind()));
    // The window columns are the pane's window: a cumulating window of 3 s, from the day's start.
    assertThat(
        Arrays.asList(
            row(query, a.key(), pane(1700000000000L, 3000), aggregate(query, List.of(a)))),
        contains(1700000000000L, 1700000003000L, "idx", 1L));
  }

  /**
   * Both of Flink SQL's spellings of sessions: the session table function partitioned by the
   * grouped columns, and the group window, whose {@code SESSION_END} is the session's end (Beam SQL
   * alone would give its start).
   */
  @Test
  void sessionsInBothFormsAreSessionsWithTheirStartAndEnd() throws Exception {
    EventTimeWindowing sessions = EventTimeWindowing.sessions(Duration.standardSeconds(30));
    WindowedQuery function =
        WindowedQuery.plan(
            s5Table(),
            "SELECT window_start, window_end, i, COUNT(*) AS n FROM TABLE(SESSION(TABLE"
                + " _source_table PARTITION BY i, DESCRIPTOR(rowtime), INTERVAL '30' SECOND))"
                + " GROUP BY window_start, window_end, i");
    WindowedQuery grouped =
        WindowedQuery.plan(
            s5Table(),
            "SELECT i, SESSION_START(rowtime, INTERVAL '30' SECOND),\n"
                + " SESSION_END(rowtime, INTERVAL '30' SECOND) AS ends, COUNT(*) AS n\n"
                + "FROM _source_table WHERE op = 'es_sink'\n"
                + "GROUP BY SESSION(rowtime, INTERVAL '30' SECOND), i\n"
                + "HAVING COUNT(*) > 0");
    SqlRecordFormat format = SqlRecordFormat.of(grouped, SqlRecordFormat.Shape.JSON);
    Event a = format.parse("{\"t\":1700000001000,\"i\":\"idx\",\"op\":\"es_sink\"}");

    assertThat(function.windows().kind(), equalTo(sessions.kind()));
    assertThat(grouped.windows().kind(), equalTo(sessions.kind()));
    assertThat(grouped.resultNames(), contains("i", "EXPR$1", "ends", "n"));
    assertThat(
        Arrays.asList(
            row(grouped, a.key(), pane(1700000001000L, 42_000), aggregate(grouped, List.of(a)))),
        contains("idx", 1700000001000L, 1700000043000L, 1L));
  }

  @Test
  void anErrorInAWrittenQueryIsPlacedInTheQueryAsTyped() throws Exception {
    InvalidQueryException e =
        assertThrows(
            InvalidQueryException.class,
            () ->
                WindowedQuery.plan(
                    s5Table(),
                    "SELECT i, SESSION_END(rowtime, INTERVAL '30' SECOND) AS e, COUNT(*) FROM"
                        + " _source_table\nGROUP BY SESSION(rowtime, INTERVAL '30' SECOND), idx"));

    assertThat(e.getMessage(), containsString("at line 2, column 50: there is no column 'idx'"));
  }

  @Test
  void eachConstructSqlDoesNotRunIsRefusedByName() throws Exception {
    SqlTable table = s5Table();
    String[][] refused = {
      {
        "SELECT i, COUNT(*) FROM _source_table GROUP BY HOP(rowtime, INTERVAL '2' SECOND, INTERVAL '1' SECOND), i",
        "HOP with a slide (PT2S) longer than its size (PT1S)"
      },
      {
        "SELECT i, COUNT(*) FROM TABLE(HOP(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND, INTERVAL '2' SECOND)) WHERE window_end > TIMESTAMP '2020-01-01 00:00:00' GROUP BY window_start, window_end, i",
        "a condition on HOP's window_start or window_end is not supported"
      },
      {
        "SELECT i, window_start, window_end, COUNT(*) FROM TABLE(CUMULATE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '2' SECOND, INTERVAL '5' SECOND)) GROUP BY window_start, window_end, i",
        "CUMULATE's size (PT5S) must be a whole number of its steps (PT2S)"
      },
      {
        "SELECT op, window_start, window_end, COUNT(*) FROM TABLE(SESSION(TABLE _source_table PARTITION BY i, DESCRIPTOR(rowtime), INTERVAL '1' SECOND)) GROUP BY window_start, window_end, op",
        "must partition by the columns the query groups by besides window_start and window_end (op)"
      },
      {
        "SELECT i, COUNT(*) FROM TABLE(SESSION(TABLE _source_table PARTITION BY i, DESCRIPTOR(rowtime), INTERVAL '1' SECOND)) WHERE window_end > TIMESTAMP '2020-01-01 00:00:00' GROUP BY window_start, window_end, i",
        "a condition on SESSION's window_start or window_end is not supported: a row's session is known only once rows are grouped"
      },
      {
        "SELECT i, COUNT(*) FROM (SELECT * FROM _source_table) GROUP BY SESSION(rowtime, INTERVAL '1' SECOND), i",
        "GROUP BY SESSION(...) reads one table"
      },
      {"SELECT i, COUNT(*) FROM _source_table GROUP BY i", "a GROUP BY without TUMBLE"},
      {"SELECT i, op FROM _source_table", "a query without GROUP BY TUMBLE"},
      {
        "SELECT a.i, COUNT(*) FROM _source_table a JOIN _source_table b ON a.i = b.i GROUP BY TUMBLE(a.rowtime, INTERVAL '1' SECOND), a.i",
        "a JOIN"
      },
      {
        "SELECT i, COUNT(*) OVER (PARTITION BY i ORDER BY rowtime) FROM _source_table",
        "an OVER aggregation"
      },
      {
        "SELECT i, COUNT(*) AS n FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i ORDER BY n",
        "ORDER BY"
      },
      {
        "SELECT i, COUNT(*) FILTER (WHERE op = 'es_sink') FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i",
        "COUNT(...) FILTER (WHERE ...) is not supported"
      },
    };
    for (String[] query : refused) {
      InvalidQueryException e =
          assertThrows(
              InvalidQueryException.class, () -> WindowedQuery.plan(table, query[0]), query[0]);
      assertThat(query[0], e.getMessage(), containsString(query[1]));
      assertThat(e.getMessage(), containsString("sql takes SELECT"));
    }
  }

  /**
   * In a time zone, as Flink SQL's {@code table.local-time-zone} has it: {@code rowtime}, a {@code
   * TIMESTAMP} column, the window's bounds and what {@code DATE_FORMAT} writes are local dates and
   * times there, and a {@code TIMESTAMP} literal in {@code WHERE} is read there; the event time and
   * the window the pane engine sees stay the same instants.
   */
  @Test
  void inATimeZoneEveryTimestampOfTheQueryIsALocalTimeThere() throws Exception {
    WindowedQuery query =
        WindowedQuery.plan(
            SqlTable.of("events", "t BIGINT, seen TIMESTAMP, i VARCHAR", "t")
                .withTimeZone(ZoneId.of("Asia/Shanghai")),
            "SELECT i, DATE_FORMAT(TUMBLE_END(rowtime, INTERVAL '1' SECOND), 'yyyy-MM-dd HH:mm:ss')"
                + " AS e, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, MAX(seen) AS latest"
                + " FROM events WHERE rowtime >= TIMESTAMP '2023-11-15 06:13:21'"
                + " GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.CSV);
    Event before = format.parse("1700000000500,2023-11-14T22:13:20Z,idx");
    Event a = format.parse("1700000001000,2023-11-14T22:13:21Z,idx");
    Event b = format.parse("1700000001500,1700000001500,idx");

    assertThat(a.eventTime(), equalTo(new Instant(1700000001000L)));
    assertThat(query.isFiltered(before.key()), equalTo(true));
    assertThat(query.isFiltered(a.key()), equalTo(false));
    Object[] row = row(query, a.key(), pane(1700000001000L, 1000), aggregate(query, List.of(a, b)));
    assertThat(row[1], equalTo("2023-11-15 06:13:22"));
    assertThat(query.shown(2, row[2]), equalTo("2023-11-15 06:13:21.000"));
    assertThat(query.shown(3, row[3]), equalTo("2023-11-15 06:13:21.500"));
  }

  /**
   * Flink's {@code FROM_UNIXTIME} writes an instant, and {@code UNIX_TIMESTAMP} reads a local time,
   * in the session's time zone, as {@code DATE_FORMAT} does; one the text is not, {@code
   * UNIX_TIMESTAMP} gives {@code Long.MIN_VALUE} for, as Flink's does.
   */
  @Test
  void flinksUnixTimeFunctionsAreInTheSessionsTimeZone() throws Exception {
    ZoneId shanghai = ZoneId.of("Asia/Shanghai");
    WindowedQuery query =
        WindowedQuery.plan(
            SqlTable.of("events", "t BIGINT, seen STRING, i STRING", "t").withTimeZone(shanghai),
            "SELECT i, FROM_UNIXTIME(MAX(t) / 1000) AS latest,"
                + " FROM_UNIXTIME(MIN(t) / 1000, 'HH:mm') AS first_minute,"
                + " MAX(UNIX_TIMESTAMP(seen)) AS seen_seconds,"
                + " MIN(UNIX_TIMESTAMP(seen, 'dd/MM/yyyy')) AS unreadable"
                + " FROM events GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i");
    SqlRecordFormat format = SqlRecordFormat.of(query, SqlRecordFormat.Shape.CSV);
    Event a = format.parse("1700000001000,2023-11-15 06:13:21,idx");

    Object[] row = row(query, a.key(), pane(1700000001000L, 1000), aggregate(query, List.of(a)));
    java.time.ZonedDateTime local = java.time.Instant.ofEpochSecond(1700000001L).atZone(shanghai);
    assertThat(
        row[1],
        equalTo(local.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"))));
    assertThat(
        row[2], equalTo(local.format(java.time.format.DateTimeFormatter.ofPattern("HH:mm"))));
    assertThat(row[3], equalTo(1700000001L));
    assertThat(row[4], equalTo(Long.MIN_VALUE));
  }

  /**
   * A window that does not divide the zone's offset from UTC would start at another local time than
   * Flink SQL's (Kolkata is 5:30 ahead: an hour's window would start at half past): refused, and
   * the windows that do divide it run.
   */
  @Test
  void aWindowThatWouldStartAtAnotherLocalTimeThanFlinksIsRefused() throws Exception {
    SqlTable kolkata = s5Table().withTimeZone(ZoneId.of("Asia/Kolkata"));
    String hourly =
        "SELECT i, COUNT(*) AS n FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' HOUR), i";

    InvalidQueryException e =
        assertThrows(InvalidQueryException.class, () -> WindowedQuery.plan(kolkata, hourly));

    assertThat(
        e.getMessage(),
        equalTo(
            "in --timeZone=Asia/Kolkata, which has been UTC+05:30 at times since 1973, a window of 1h"
                + " would start 30m after the local time Flink SQL starts it at: sql aligns"
                + " windows on UTC; give a window that divides the zone's offset, or"
                + " --timeZone=UTC"));
    assertThat(
        assertThrows(
                InvalidQueryException.class,
                () -> WindowedQuery.plan(kolkata, hourly.replace("'1' HOUR", "'1' DAY")))
            .getMessage(),
        containsString("a window of 24h would start 5h30m after the local time"));
    assertThat(
        WindowedQuery.plan(kolkata, hourly.replace("'1' HOUR", "'30' MINUTE"))
            .windows()
            .size()
            .getStandardMinutes(),
        equalTo(30L));
    assertThat(
        WindowedQuery.plan(s5Table(), hourly.replace("'1' HOUR", "'1' DAY"))
            .windows()
            .size()
            .getStandardDays(),
        equalTo(1L));
  }

  @Test
  void aSyntaxErrorSaysItsLineAndColumn() throws Exception {
    InvalidQueryException e =
        assertThrows(
            InvalidQueryException.class,
            () -> WindowedQuery.plan(s5Table(), "SELECT i,\nCOUNT(* FROM _source_table"));

    assertThat(e.line(), equalTo(2));
    assertThat(e.column(), equalTo(9));
    assertThat(e.getMessage(), containsString("syntax error at line 2, column 9"));
  }

  @Test
  void aSchemaThatIsNotAColumnListSaysWhereInOneLine() {
    InvalidQueryException e =
        assertThrows(
            InvalidQueryException.class, () -> SqlTable.of("t", "t BIGINT i VARCHAR", "t"));

    assertThat(
        e.getMessage(),
        equalTo(
            "'t BIGINT i VARCHAR' is not a column list such as 't BIGINT, i STRING':"
                + " Encountered \"i\" at column 10"));
  }

  @Test
  void anUnknownColumnSaysWhichColumnsThereAre() throws Exception {
    InvalidQueryException e =
        assertThrows(
            InvalidQueryException.class,
            () ->
                WindowedQuery.plan(
                    s5Table(),
                    "SELECT idx, COUNT(*) FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), idx"));

    assertThat(e.unknownColumn(), equalTo("idx"));
    assertThat(e.columns(), contains("t", "i", "op", "rowtime"));
    assertThat(e.getMessage(), containsString("at line 1, column 88: there is no column 'idx'"));
  }

  private static WindowPane pane(long start, long size) {
    return new WindowPane(new Instant(start), new Instant(start + size), Timing.ON_TIME, 0, true);
  }

  @SuppressWarnings("unchecked")
  private static <AccumT> List<Object> aggregate(WindowedQuery query, List<Event> events) {
    CombineFn<Event, AccumT, List<Object>> fn =
        (CombineFn<Event, AccumT, List<Object>>) (CombineFn<?, ?, ?>) query.aggregate();
    AccumT accumulator = fn.createAccumulator();
    for (Event event : events) {
      accumulator = fn.addInput(accumulator, event);
    }
    return new ArrayList<>(fn.extractOutput(accumulator));
  }

  /** The one row of {@code key}'s {@code pane}, or null when there is none. */
  private static Object @Nullable [] row(
      WindowedQuery query, EventKey key, WindowPane pane, List<@Nullable Object> aggregates) {
    List<WindowedQuery.ResultRow> rows = query.results(key, pane, aggregates);
    assertThat(rows.size() <= 1, is(true));
    return rows.isEmpty() ? null : rows.get(0).values();
  }
}
