package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every mistake of a table sink's configuration stops the run before the job starts: one line on
 * stderr, exit 2, within 10 s, against a real PostgreSQL server; and no line ever shows the
 * password.
 */
@ExtendWith(SharedPostgresServer.class)
class TableSinkMistakesTest {

  private static final String READER_PASSWORD = "reader-secret-7Qx";
  private static final Duration AT_MOST = Duration.ofSeconds(10);

  @TempDir static Path directory;

  private static PostgresServer server;

  @BeforeAll
  static void aUserWithoutRights(PostgresServer shared) {
    server = shared;
    server.execute(
        "CREATE ROLE reader LOGIN PASSWORD '" + READER_PASSWORD + "'",
        "CREATE TABLE guarded (key text, window_start timestamptz, window_end timestamptz,"
            + " count bigint, timing text, pane bigint, final boolean,"
            + " PRIMARY KEY (key, window_start, window_end))",
        "GRANT SELECT ON guarded TO reader",
        "CREATE TABLE no_pane (key text, window_start timestamptz, window_end timestamptz,"
            + " count bigint, timing text, final boolean,"
            + " PRIMARY KEY (key, window_start, window_end))",
        "CREATE TABLE no_key (key text, window_start timestamptz, window_end timestamptz,"
            + " count bigint, timing text, pane bigint, final boolean)",
        "CREATE TABLE counts_as_text (key text, window_start timestamptz, window_end"
            + " timestamptz, count text, timing text, pane bigint, final boolean,"
            + " PRIMARY KEY (key, window_start, window_end))");
  }

  @Test
  void aWrongPassword() throws IOException {
    Path login = PostgresServer.properties(directory, "user=postgres", "password=wrong-Zq9");
    assertRefused(
        "tidemark: --sink: PostgreSQL at 127.0.0.1:"
            + server.port()
            + " refused the login: password authentication failed for user \"postgres\"; check"
            + " user and password in --jdbcProperties",
        List.of("wrong-Zq9", server.password()),
        "--sink=" + server.sink("t"),
        "--jdbcProperties=" + login);
  }

  @Test
  void aPortWhereNothingListens() throws IOException {
    int closed;
    try (ServerSocket free = new ServerSocket(0)) {
      closed = free.getLocalPort();
    }
    assertRefused(
        "tidemark: --lateSink: nothing answers at 127.0.0.1:" + closed,
        List.of(server.password()),
        "--lateSink=jdbc:postgresql://127.0.0.1:" + closed + "/tidemark?table=late",
        "--jdbcProperties=" + server.superuserProperties(directory));
  }

  @Test
  void aServerThatTakesTheConnectionAndNeverAnswers() throws IOException {
    try (ServerSocket silent = new ServerSocket(0)) {
      assertRefused(
          "tidemark: --sink: PostgreSQL at 127.0.0.1:"
              + silent.getLocalPort()
              + " did not answer in time (Connection attempt timed out.)",
          List.of(server.password()),
          "--sink=jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/tidemark?table=t",
          "--jdbcProperties=" + server.superuserProperties(directory));
    }
  }

  @Test
  void aDatabaseThatDoesNotExist() throws IOException {
    assertRefused(
        "tidemark: --deadLetterSink: PostgreSQL at 127.0.0.1:"
            + server.port()
            + ": database \"nowhere\" does not exist",
        List.of(server.password()),
        "--deadLetterSink=jdbc:postgresql://127.0.0.1:" + server.port() + "/nowhere?table=dead",
        "--jdbcProperties=" + server.superuserProperties(directory));
  }

  @Test
  void aUserWhoMayNotCreateTheTable() throws IOException {
    assertRefused(
        "tidemark: --sink: cannot create table made_by_reader: permission denied for schema"
            + " public",
        List.of(READER_PASSWORD),
        "--sink=" + server.sink("made_by_reader"),
        "--jdbcProperties=" + readerLogin());
  }

  @Test
  void aUserWhoMayNotWriteTheTable() throws IOException {
    assertRefused(
        "tidemark: --sink: user 'reader' may not write table guarded (tidemark selects, inserts,"
            + " updates and deletes its rows)",
        List.of(READER_PASSWORD),
        "--sink=" + server.sink("guarded"),
        "--jdbcProperties=" + readerLogin());
  }

  @Test
  void aPropertyTheDriverDoesNotKnow() throws IOException {
    Path login =
        PostgresServer.properties(
            directory, "user=postgres", "password=" + server.password(), "sslmod=require");
    assertRefused(
        "tidemark: --jdbcProperties: 'sslmod' in "
            + login
            + " is not a property of PostgreSQL's JDBC driver; did you mean 'sslmode'?",
        List.of(server.password()),
        "--sink=" + server.sink("t"),
        "--jdbcProperties=" + login);
  }

  @Test
  void aTableWithoutAColumnTheRowsNeed() throws IOException {
    assertRefused(
        "tidemark: --sink: table no_pane has no column pane (bigint); tidemark never alters a"
            + " table: add the column, or name a new table",
        List.of(server.password()),
        "--sink=" + server.sink("no_pane"),
        "--jdbcProperties=" + server.superuserProperties(directory));
  }

  @Test
  void aTableWhoseColumnCannotHoldItsValues() throws IOException {
    assertRefused(
        "tidemark: --sink: column count of table counts_as_text is text, which cannot hold its"
            + " values; tidemark writes bigint",
        List.of(server.password()),
        "--sink=" + server.sink("counts_as_text"),
        "--jdbcProperties=" + server.superuserProperties(directory));
  }

  @Test
  void aTableWithoutTheKey() throws IOException {
    assertRefused(
        "tidemark: --sink: table no_key needs the primary key (key, window_start, window_end),"
            + " so that a replay replaces rows rather than adding them; tidemark never alters a"
            + " table: add it, or name a new table",
        List.of(server.password()),
        "--sink=" + server.sink("no_key"),
        "--jdbcProperties=" + server.superuserProperties(directory));
  }

  @Test
  void aPasswordInTheUrl() {
    assertRefused(
        "tidemark: --sink: the URL takes one setting, table=NAME"
            + " (jdbc:postgresql://HOST:PORT/DB?table=NAME); put user, password and the driver's"
            + " other properties in --jdbcProperties=FILE",
        List.of("in-the-url-5Tk"),
        "--sink=" + server.sink("t") + "&password=in-the-url-5Tk");
  }

  private Path readerLogin() throws IOException {
    return PostgresServer.properties(directory, "user=reader", "password=" + READER_PASSWORD);
  }

  /** {@code count} with {@code options} stops with {@code line} alone, exit 2, within 10 s. */
  private static void assertRefused(String line, List<String> secrets, String... options) {
    String[] args = new String[options.length + 2];
    args[0] = "count";
    args[1] = "--runner=DirectRunner";
    System.arraycopy(options, 0, args, 2, options.length);
    long started = System.nanoTime();
    CommandLine run = CommandLine.run(args);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(run.err, run.exitCode, equalTo(2));
    assertThat(run.err.strip(), equalTo(line));
    assertThat(run.out, equalTo(""));
    assertThat(took, lessThan(AT_MOST));
    for (String secret : secrets) {
      assertThat(run.err + run.out, not(containsString(secret)));
    }
  }
}
