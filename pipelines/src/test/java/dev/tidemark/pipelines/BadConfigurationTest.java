package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad configuration fails before the job starts: exit code 2 and exactly one line on stderr that
 * says what was wrong, with the value, and what is expected; no stack trace.
 */
class BadConfigurationTest {

  @TempDir static Path directory;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "unknown pipeline | sum --windowSize=5s | tidemark: 'sum' is not a pipeline; use count, metrics, join, sql, explain or startup-archive (or --help)",
        "report of a live source | count --source=socket://localhost:7777 --report=/tmp/r.html | tidemark: --report: only for a recording (file:PATH, sample: or generator:); 'socket://localhost:7777' is live",
        "explain a live source | explain --source=socket://localhost:7777 | tidemark: --source: explain replays a recording (file:PATH, sample: or generator:) or a snapshot of a Kafka topic (kafka://HOST:PORT/TOPIC); 'socket://localhost:7777' is live, and cannot be read again",
        "unknown option, a near miss | count --windowSise=5s | tidemark: --windowSise is not an option of count; did you mean --windowSize?",
        "unknown option, the wrong case | metrics --maxoutoforderness=5s | tidemark: --maxoutoforderness is not an option of metrics; did you mean --maxOutOfOrderness?",
        "unknown option, far from any | count --colour=red | tidemark: --colour is not an option of count; see count --help",
        "an option of Beam's tidemark does not support | count --autoWatermarkInterval=100 | tidemark: --autoWatermarkInterval is not an option of count; see count --help",
        "a savepoint on embedded Flink | count --savepointPath=/tmp/sp | tidemark: --savepointPath: only for a cluster (--flinkMaster=HOST:PORT); an embedded run starts empty, and a replay of a recording needs no savepoint",
        "a savepoint on the DirectRunner | count --runner=DirectRunner --savepointPath=/tmp/sp | tidemark: --savepointPath: count on the DirectRunner does not use it: it is Flink's; leave it out",
        "explain restores nothing | explain --savepointPath=/tmp/sp | tidemark: --savepointPath: explain runs no job; leave it out",
        "an option of another command | join --source=sample: | tidemark: --source is not an option of join; see join --help",
        "explain writes no results | explain --sink=file:/tmp/out.json | tidemark: --sink: explain writes nothing but its explanation, to stdout; leave it out",
        "explain runs no job | explain --runner=DirectRunner | tidemark: --runner: explain runs no job; leave it out",
        "startup-archive runs no job | startup-archive --parallelism=2 | tidemark: --parallelism: startup-archive archives the jar in JVMs of its own; leave it out",
        "a Flink option on the DirectRunner | count --runner=DirectRunner --webUi=8081 | tidemark: --webUi: count on the DirectRunner does not use it: it is Flink's; leave it out",
        "detached on the DirectRunner | count --runner=DirectRunner --detached | tidemark: --detached: count on the DirectRunner does not use it: it is Flink's; leave it out",
        "detached on embedded Flink | count --detached | tidemark: --detached: only for a cluster (--flinkMaster=HOST:PORT); an embedded run ends with this process",
        "explain submits nothing | explain --detached | tidemark: --detached: explain runs no job; leave it out",
        "a time range of a recording | explain --from=2026-12-03T01:00:00Z | tidemark: --from: only for a kafka:// source, whose records have Kafka timestamps; a recording is explained whole",
        "a time range that is no instant | explain --to=yesterday | tidemark: --to: 'yesterday' is not an instant; use e.g. 2024-05-01T01:00:00Z or epoch milliseconds",
        "a time range on count | count --from=0 | tidemark: --from is not an option of count; see count --help",
        "explain reads a topic from the start | explain --startFrom=latest | tidemark: --startFrom: explain reads a Kafka topic from its earliest offsets; --from and --to select a time range; leave it out",
        "Beam's attached mode | count --attachedMode=false | tidemark: --attachedMode is not an option of count; see count --help",
        "bad duration | count --windowSize=abc | tidemark: --windowSize: 'abc' is not a duration; use e.g. 5s, 500ms, 1m or PT5S",
        "a slide longer than the window | count --windowSize=10s --windowSlide=20s | tidemark: --windowSlide: 20s is longer than --windowSize=10s; use a slide of at most the size, or records between windows belong to none",
        "sliding and cumulating at once | metrics --windowSlide=1s --windowStep=1s | tidemark: --windowSlide and --windowStep contradict each other: windows either slide (--windowSlide) or grow in steps (--windowStep); give one",
        "a size that is not whole steps | count --windowSize=1d --windowStep=7h | tidemark: --windowStep: --windowSize=1d is not a whole number of steps of 7h; use a step that divides the size",
        "a zero slide | count --windowSlide=0s | tidemark: --windowSlide: 0 is not allowed; use e.g. 10s",
        "sessions that slide | count --sessionGap=30s --windowSlide=1s | tidemark: --sessionGap and --windowSlide contradict each other: sessions have no slide or step; give one",
        "a zero session gap | metrics --sessionGap=0s | tidemark: --sessionGap: 0 is not allowed; use e.g. 10s",
        "the join's windows tumble | join --windowSlide=1s | tidemark: --windowSlide is not an option of join; did you mean --windowSize?",
        "negative ISO duration | count --allowedLateness=PT-5S | tidemark: --allowedLateness: 'PT-5S' is not a duration; use e.g. 5s, 500ms, 1m or PT5S",
        "zero idle timeout | count --idleTimeout=0s | tidemark: --idleTimeout: 0 is not allowed; use e.g. 10s",
        "zero idle flush | count --idleFlush=0s | tidemark: --idleFlush: 0 is not allowed; use e.g. 10s",
        "bad partition gap | count --partitionIdleGap=soon | tidemark: --partitionIdleGap: 'soon' is not a duration; use e.g. 5s, 500ms, 1m or PT5S",
        "unknown scheme | count --source=ftp://host/file | tidemark: --source: 'ftp://host/file' is not a source; use file:PATH, socket://HOST:PORT, kafka://HOST:PORT/TOPIC, generator: or sample:",
        "unreachable file | count --source=file:/nonexistent/tidemark/*.csv | tidemark: --source: no file matches '/nonexistent/tidemark/*.csv'",
        "missing file at the root | count --source=file:/no-such-tidemark-file.csv | tidemark: --source: no file matches '/no-such-tidemark-file.csv'",
        "bad future skew | count --maxFutureSkew=soon | tidemark: --maxFutureSkew: 'soon' is not a duration; use e.g. 5s, 500ms, 1m or PT5S",
        "option without a value | count --windowSize | tidemark: --windowSize needs a value, e.g. --windowSize=5s",
        "parallelism not a number | count --parallelism=abc | tidemark: --parallelism: 'abc' is not a whole number; use 1 or more",
        "parallelism zero | count --parallelism=0 | tidemark: --parallelism: 0 is not allowed; use 1 or more",
        "parallelism negative | count --parallelism=-3 | tidemark: --parallelism: -3 is not allowed; use 1 or more",
        "unknown runner | count --runner=SparkRunner | tidemark: --runner: 'SparkRunner' is not a runner tidemark runs on; use FlinkRunner or DirectRunner",
        "sink is a directory | count --sink=file:/tmp | tidemark: --sink: '/tmp' is a directory; name a file in it, e.g. file:/tmp/results.json",
        "bad port | count --source=socket://localhost:99999 | tidemark: --source: '99999' is not a TCP port; use a number from 1 to 65535",
        "kafka without topic | count --source=kafka://localhost:9092 | tidemark: --source: 'kafka://localhost:9092' names no topic; use kafka://HOST:PORT/TOPIC",
        "bad generator setting | count --source=generator:speed=3 | tidemark: --source: 'speed' is not a generator setting; use records, keys, outOfOrderness, late, bad, rate or seed",
        "bad generator number | count --source=generator:late=lots | tidemark: --source: a generator setting in 'generator:late=lots' is not a number",
        "bad sink | count --sink=s3://bucket/out | tidemark: --sink: 's3://bucket/out' is not a sink; use stdout, file:PATH, kafka://HOST:PORT/TOPIC or jdbc:postgresql://HOST:PORT/DB?table=NAME",
        "two outputs, one table | count --sink=jdbc:postgresql://127.0.0.1:5432/db?table=t --lateSink=jdbc:postgresql://127.0.0.1:5432/db?table=t | tidemark: --lateSink: names the table of --sink; late records need a table of their own",
        "a database tidemark does not write | count --sink=jdbc:mysql://127.0.0.1:3306/db?table=t | tidemark: --sink: tidemark writes tables to PostgreSQL: jdbc:postgresql://HOST:PORT/DB?table=NAME",
        "a table name to quote | count --sink=jdbc:postgresql://127.0.0.1:5432/db?table=Counts | tidemark: --sink: 'Counts' is not a table tidemark writes: use a plain lower-case name, NAME or SCHEMA.NAME, of letters, digits and _",
        "sink directory missing | count --lateSink=file:/nonexistent/tidemark/late.json | tidemark: --lateSink: cannot write '/nonexistent/tidemark/late.json'; its directory must exist",
        "bad format | count --format=xml | tidemark: --format: 'xml' is not a format; use csv or json",
        "sum without json | count --sumField=id | tidemark: --sumField: only --format=json has named fields; csv lines are key,epochMillis",
        "bad start position | count --source=kafka://localhost:9092/t --startFrom=middle | tidemark: --startFrom: 'middle' is not a start position; use earliest, latest or committed",
        "bad emit | count --emit=last | tidemark: --emit: 'last' is not a choice of panes; use all or final",
        "bad time zone | metrics --timeZone=Mars/Olympus | tidemark: --timeZone: 'Mars/Olympus' is not a time zone; use e.g. UTC or Asia/Shanghai",
        "faster copy | metrics --fasterCopy=true | tidemark: --fasterCopy: it lets a checkpoint take in records that came after its barrier, so a restore counts them twice; leave it out: tidemark already passes elements between operators without copying them",
        "startup archive outside the jar | startup-archive | tidemark: startup-archive archives the jar it runs from: java -jar tidemark.jar startup-archive",
        "unknown sample | join --coupons=sample:nope.json | tidemark: --coupons: 'nope.json' is not a bundled sample; use sample: or sample:NAME with NAME one of count.csv, stats.json, orders.json, coupons.json, s2-orders.json",
      })
  void failsBeforeTheJobStartsWithOneClearLine(String name, String args, String expected) {
    CommandLine run = CommandLine.run(args.trim().split(" "));

    assertThat(run.exitCode, equalTo(2));
    assertThat(run.err, equalTo(expected.trim() + System.lineSeparator()));
    assertThat(run.out, equalTo(""));
  }

  @Test
  void everyWrongOptionNameIsSaidAtOnce() {
    CommandLine run =
        CommandLine.run("count", "--sourc=sample:", "--windowSize=5s", "--alowedLateness=1m");

    assertThat(run.exitCode, equalTo(2));
    assertThat(
        run.err.lines().toList(),
        equalTo(
            List.of(
                "tidemark: --sourc is not an option of count; did you mean --source?",
                "tidemark: --alowedLateness is not an option of count; did you mean"
                    + " --allowedLateness?")));
  }

  @Test
  void stdoutIsNoSinkOnACluster() {
    CommandLine run =
        CommandLine.run("count", "--flinkMaster=127.0.0.1:1", "--sink=file:/tmp/results.json");

    assertThat(run.exitCode, equalTo(2));
    String why =
        ": stdout on a cluster is the TaskManagers' log, where records are lost among Flink's"
            + " lines; give kafka://HOST:PORT/TOPIC, or file:PATH on a path every TaskManager"
            + " shares";
    assertThat(
        run.err.lines().toList(),
        equalTo(List.of("tidemark: --lateSink" + why, "tidemark: --deadLetterSink" + why)));
  }

  @Test
  void webUiOnAPortInUseFailsBeforeTheJobStarts() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      CommandLine run = CommandLine.run("count", "--webUi=" + port);

      assertThat(run.exitCode, equalTo(2));
      assertThat(
          run.err,
          equalTo(
              "tidemark: --webUi: 127.0.0.1:"
                  + port
                  + " is in use; choose another port, or leave --webUi out"
                  + System.lineSeparator()));
      assertThat(run.out, equalTo(""));
    }
  }

  @Test
  void noArgumentsPrintsUsageAndFails() {
    CommandLine run = CommandLine.run();
    assertThat(run.exitCode, equalTo(2));
    assertThat(run.err, containsString("usage: java -jar tidemark.jar <pipeline>"));
  }

  @Test
  void helpListsEveryOptionWithItsDefault() {
    CommandLine run = CommandLine.run("count", "--help");
    assertThat(run.exitCode, equalTo(0));
    for (String option :
        new String[] {
          "--source=sample:",
          "--sink=stdout",
          "--lateSink=stdout",
          "--deadLetterSink=stdout",
          "--windowSize=5s",
          "--maxOutOfOrderness=1s",
          "--allowedLateness=0s",
          "--idleTimeout=10s",
          "--maxFutureSkew=15m",
          "--format=csv",
          "--keyField=key",
          "--timeField=time",
          "--sumField=<none>",
          "--startFrom=earliest",
          "--runner=FlinkRunner",
          "--flinkMaster=[local]",
          "--parallelism=",
          "--checkpointingInterval=-1",
          "--checkpointingMode=EXACTLY_ONCE",
          "--numberOfExecutionRetries=-1",
          "--flinkConfDir=<none>"
        }) {
      assertThat(run.out, containsString(option));
    }
    assertThat(CommandLine.run("metrics", "--help").out, containsString("--windowSize=1s"));
    CommandLine all = CommandLine.run("--help");
    assertThat(all.exitCode, equalTo(0));
    assertThat(all.out, containsString("usage: java -jar tidemark.jar join"));
    assertThat(all.out, containsString("--timeZone=UTC"));
    assertThat(CommandLine.run("join", "--help").out, containsString("--orders=sample:"));
  }
}
