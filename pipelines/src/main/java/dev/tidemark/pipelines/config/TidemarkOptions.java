package dev.tidemark.pipelines.config;

import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Hidden;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The options every tidemark pipeline takes. Sinks are URIs; durations accept {@code 500ms}, {@code
 * 5s}, {@code 1m} or ISO-8601 ({@code PT5S}). Runner options ({@code --runner}, {@code
 * --flinkMaster}, {@code --parallelism}) come from Beam and Flink.
 */
public interface TidemarkOptions extends FlinkPipelineOptions, DirectOptions {

  /**
   * Where the job's steps reach the client that submitted the job to a cluster and waits for it, to
   * say in their logs when that client has gone; set by the client, never by a user.
   */
  @Hidden
  @Nullable String getClientLifeline();

  void setClientLifeline(@Nullable String value);

  @Description(
      "Where results go: stdout, file:PATH (JSON lines), kafka://HOST:PORT/TOPIC or"
          + " jdbc:postgresql://HOST:PORT/DB?table=NAME (one row per key and window, the newest"
          + " pane; login in --jdbcProperties)")
  @Default.String("stdout")
  String getSink();

  void setSink(String value);

  @Description("Where late records go (same forms as --sink)")
  @Default.String("stdout")
  String getLateSink();

  void setLateSink(String value);

  @Description("Where records that cannot be parsed go, with the reason (same forms as --sink)")
  @Default.String("stdout")
  String getDeadLetterSink();

  void setDeadLetterSink(String value);

  @Description(
      "A Kafka client properties file, as Kafka's tools take with --command-config"
          + " (security.protocol, sasl.*, ssl.*, group.id, ...), for every Kafka source, sink and"
          + " topic check of the run. Every setting is checked by Kafka's own definitions before"
          + " the job starts: an unknown name (with the nearest known one), a wrong value, or a"
          + " SASL protocol without sasl.jaas.config stops the run with one line. bootstrap.servers,"
          + " auto.offset.reset, the (de)serializers, enable.idempotence and"
          + " transactional.id come from tidemark and are refused there")
  @Nullable String getKafkaProperties();

  void setKafkaProperties(@Nullable String value);

  @Description(
      "A properties file of PostgreSQL's JDBC driver (user, password, ssl, sslmode, ...) for every"
          + " jdbc:postgresql:// sink of the run. Each name is checked against the driver's own"
          + " before the job starts; the password is never printed or logged")
  @Nullable String getJdbcProperties();

  void setJdbcProperties(@Nullable String value);

  @Description(
      "Which panes of a window are written: all (EARLY, ON_TIME and LATE, each a new row) or"
          + " final: one row per (key, window), its final pane, when the window expires (its end"
          + " plus --allowedLateness), with no EARLY pane; for a store downstream that appends"
          + " (pane is 0, timing ON_TIME)")
  @Default.String("all")
  String getEmit();

  void setEmit(String value);

  @Description("How long after its end a window still takes late records (as LATE panes)")
  @Default.String("0s")
  String getAllowedLateness();

  void setAllowedLateness(String value);

  @Description(
      "How long (wall clock) a caught-up input must be quiet before its watermark advances"
          + " without data; also the default of --idleFlush and --partitionIdleGap")
  @Default.String("10s")
  String getIdleTimeout();

  void setIdleTimeout(String value);

  @Description(
      "How long (wall clock) the watermark must stand still, while a window holds records not yet"
          + " reported, before that window emits an EARLY result; a watermark that moves closes"
          + " windows by itself, so a steady stream gets no EARLY result (default: --idleTimeout)")
  @Nullable String getIdleFlush();

  void setIdleFlush(@Nullable String value);

  @Description(
      "For a recording with --partitionField: how far (event time) a partition may fall behind the"
          + " newest record before it stops holding the watermark back (default: --idleTimeout)")
  @Nullable String getPartitionIdleGap();

  void setPartitionIdleGap(@Nullable String value);

  @Description(
      "How far ahead of the wall clock an event time may be: a record further ahead is a dead"
          + " letter (the reason says how far) and moves no watermark; no watermark ever passes"
          + " the clock minus --maxOutOfOrderness. Event times before 1973-03-03 (epoch"
          + " millisecond 10^11) are dead letters too: seconds read as milliseconds (the reason"
          + " gives the time they meant), zero or negative placeholders")
  @Default.String("15m")
  String getMaxFutureSkew();

  void setMaxFutureSkew(String value);

  @Description(
      "The longest record a source passes on, in bytes (1048576: 1 MiB): a longer line of a file"
          + " or a socket, or Kafka value, is a dead letter that keeps its first 1024 bytes and"
          + " says how long it was and where (line number, number on the connection, or partition"
          + " and offset); the reader never holds more than about twice this in memory, even for a"
          + " sender that never ends its line")
  @Default.Integer(1_048_576)
  Integer getMaxRecordBytes();

  void setMaxRecordBytes(Integer value);

  @Description(
      "For kafka:// sources: earliest, latest, or committed: where the consumer group (group.id"
          + " in --kafkaProperties) last committed, else the earliest. With a group.id, offsets are"
          + " committed as each checkpoint completes, and Kafka starts a group from its commits"
          + " whatever --startFrom says; it applies where the group has none. A resubmitted job"
          + " resumes reading there, but the windows open at the stop start again empty; to keep"
          + " them, upgrade through a savepoint (--savepointPath)")
  @Default.String("earliest")
  String getStartFrom();

  void setStartFrom(String value);

  @Description(
      "Embedded Flink: serve Flink's Web UI and REST API on this port of 127.0.0.1 (e.g. 8081)")
  Integer getWebUi();

  void setWebUi(Integer value);

  @Description(
      "On a cluster: return once the job runs, leaving it running (stop it from Flink's Web UI or"
          + " REST API); exit 1, saying why, if it fails, restarts or finds no free slot")
  @Default.Boolean(false)
  Boolean getDetached();

  void setDetached(Boolean value);
}
