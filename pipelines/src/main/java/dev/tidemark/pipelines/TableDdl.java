package dev.tidemark.pipelines;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.QueryOptions;
import dev.tidemark.sql.InvalidQueryException;
import dev.tidemark.sql.SqlTable;
import dev.tidemark.sql.TableDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.joda.time.Duration;

/**
 * {@code --ddl}: a Flink SQL {@code CREATE TABLE}, read into the table a query reads and the
 * options its {@code WATERMARK} and {@code WITH} part mean. The watermark's delay is {@code
 * --maxOutOfOrderness}; {@code 'format'} is {@code --format}; a Kafka or filesystem connector's
 * options are {@code --source} and {@code --startFrom}. Any other option, and any of those options
 * given on the command line as well, is refused in one line that names it: a job never runs with
 * two answers to one question.
 */
final class TableDdl {

  /** {@code --maxOutOfOrderness}'s default, which a table definition's watermark replaces. */
  private static final String DEFAULT_OUT_OF_ORDERNESS = "2s";

  private static final Map<String, String> STARTUP_MODES =
      Map.of(
          "earliest-offset", "earliest",
          "latest-offset", "latest",
          "group-offsets", "committed");

  private TableDdl() {}

  /**
   * The table {@code ddlText} defines, with {@code options} set as its watermark and options say.
   *
   * @throws ConfigurationException when it is refused, or contradicts another option
   */
  static SqlTable apply(SqlPipeline.Options options, String ddlText) {
    TableDefinition definition;
    try {
      definition = SqlTable.ofDdl(ddlText);
    } catch (InvalidQueryException e) {
      throw new ConfigurationException("--ddl: " + e.getMessage());
    }
    refuseTheShortForm(options);
    Map<String, String> rest = new LinkedHashMap<>(definition.options());
    String format = rest.remove("format");
    if (format != null) {
      options.setFormat(only("--format", options.getFormat(), "json", format));
    }
    options.setMaxOutOfOrderness(
        only(
            "--maxOutOfOrderness",
            options.getMaxOutOfOrderness(),
            DEFAULT_OUT_OF_ORDERNESS,
            millis(definition.watermarkDelay())));
    String connector = rest.remove("connector");
    if (connector != null) {
      options.setSource(only("--source", options.getSource(), "sample:", source(connector, rest)));
    }
    if (!rest.isEmpty()) {
      String option = rest.keySet().iterator().next();
      throw new ConfigurationException(
          "--ddl: the option '"
              + option
              + "' is not one sql takes; it takes 'connector' ('kafka' with 'topic',"
              + " 'properties.bootstrap.servers' and 'scan.startup.mode', or 'filesystem' with"
              + " 'path') and 'format' ('json' or 'csv'); Kafka's client properties go in"
              + " --kafkaProperties");
    }
    return definition.table();
  }

  private static void refuseTheShortForm(QueryOptions options) {
    List<String> given = new ArrayList<>();
    if (!QueryOptions.S5_SCHEMA.equals(options.getSchema())) {
      given.add("--schema");
    }
    if (!"t".equals(options.getEventTime())) {
      given.add("--eventTime");
    }
    if (!"_source_table".equals(options.getTable())) {
      given.add("--table");
    }
    if (!given.isEmpty()) {
      throw new ConfigurationException(
          "--ddl and "
              + String.join(", ", given)
              + " both declare the table; give the columns, event time and name in one of them");
    }
  }

  /** The source a connector's options name, its start set in {@code options}' terms. */
  private static String source(String connector, Map<String, String> rest) {
    return switch (connector) {
      case "kafka" -> {
        String servers = required(rest, "properties.bootstrap.servers", connector);
        String topic = required(rest, "topic", connector);
        String mode = rest.remove("scan.startup.mode");
        if (mode != null && !mode.equals("earliest-offset")) {
          String startFrom = STARTUP_MODES.get(mode);
          throw new ConfigurationException(
              "--ddl: 'scan.startup.mode' = '"
                  + mode
                  + "': "
                  + (startFrom == null
                      ? "sql takes earliest-offset, latest-offset or group-offsets"
                      : "give --startFrom=" + startFrom + " instead, which sql reads"));
        }
        yield "kafka://" + servers + "/" + topic;
      }
      case "filesystem" -> "file:" + required(rest, "path", connector);
      default ->
          throw new ConfigurationException(
              "--ddl: the connector '"
                  + connector
                  + "' is not one sql reads; it reads 'kafka' and 'filesystem', or give --source");
    };
  }

  private static String required(Map<String, String> options, String key, String connector) {
    String value = options.remove(key);
    if (value == null) {
      throw new ConfigurationException(
          "--ddl: the '" + connector + "' connector needs the option '" + key + "'");
    }
    return value;
  }

  /**
   * {@code fromDdl}, unless the command line gives {@code option} a value of its own, other than
   * its default and other than the definition's.
   */
  private static String only(String option, String given, String byDefault, String fromDdl) {
    if (!Objects.equals(given, byDefault) && !Objects.equals(given, fromDdl)) {
      throw new ConfigurationException(
          "--ddl says " + fromDdl + " and " + option + " says " + given + "; give one of them");
    }
    return fromDdl;
  }

  private static String millis(Duration delay) {
    return delay.getMillis() + "ms";
  }
}
