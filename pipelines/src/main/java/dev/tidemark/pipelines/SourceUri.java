package dev.tidemark.pipelines;

import dev.tidemark.transforms.io.FileLines;
import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.ReadSocketLines;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.io.ReplaySource;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.watermark.IdleAwareTimestampPolicyFactory;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A {@code --source} URI, checked before the job starts, and how to read it: a recording ({@code
 * file:}, {@code generator:}, {@code sample:}) through {@link ReplaySource}, or a live input
 * ({@code socket://}, {@code kafka://}) with tidemark's idle-aware watermark.
 */
final class SourceUri {

  private static final String FORMS =
      "use file:PATH, socket://HOST:PORT, kafka://HOST:PORT/TOPIC, generator: or sample:";

  private enum Kind {
    RECORDED,
    SOCKET,
    KAFKA
  }

  private final String option;
  private final String uri;
  private final Kind kind;
  private RecordedLines recorded;
  private double rate;
  private String host;
  private int port;
  private boolean reconnect = true;
  private String topic;

  private SourceUri(String option, String uri, Kind kind) {
    this.option = option;
    this.uri = uri;
    this.kind = kind;
  }

  /**
   * Parses {@code uri}, the value of {@code --option}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  static SourceUri parse(String option, String uri) {
    String value = uri == null ? "" : uri.trim();
    if (value.startsWith("file:")) {
      SourceUri source = new SourceUri(option, value, Kind.RECORDED);
      String pattern = value.substring("file:".length());
      FileLines files = FileLines.matching(pattern);
      try {
        files.files();
      } catch (IOException e) {
        throw new ConfigurationException("--" + option + ": " + e.getMessage());
      }
      source.recorded = files;
      return source;
    }
    if (value.equals("sample:")) {
      SourceUri source = new SourceUri(option, value, Kind.RECORDED);
      source.recorded = new ResourceLines("/samples/count.csv");
      return source;
    }
    if (value.startsWith("generator:")) {
      return generator(option, value);
    }
    if (value.startsWith("socket://")) {
      return socket(option, value);
    }
    if (value.startsWith("kafka://")) {
      return kafka(option, value);
    }
    throw new ConfigurationException("--" + option + ": '" + uri + "' is not a source; " + FORMS);
  }

  /** Whether this source is a recording replayed deterministically. */
  boolean isRecorded() {
    return kind == Kind.RECORDED;
  }

  /** Whether this source starts from Beam's Impulse, which Flink must keep alive (sockets). */
  boolean startsFromImpulse() {
    return kind == Kind.SOCKET;
  }

  /** Reads and parses the records: {@code ParseEvents.EVENTS} and {@code DEAD_LETTER}. */
  PCollectionTuple read(
      Pipeline pipeline,
      String name,
      EventFormat format,
      Duration maxOutOfOrderness,
      Duration idleTimeout,
      String startFrom) {
    switch (kind) {
      case RECORDED:
        return pipeline
            .apply(
                "Replay" + name,
                Read.from(
                    ReplaySource.of(recorded, format.eventTimes(), maxOutOfOrderness)
                        .withRate(rate)))
            .apply("Parse" + name, ParseEvents.replayed(format));
      case SOCKET:
        ReadSocketLines socket =
            ReadSocketLines.from(host, port)
                .withEventTime(format.eventTimes())
                .withMaxOutOfOrderness(maxOutOfOrderness)
                .withIdleTimeout(idleTimeout);
        return pipeline
            .apply("ReadSocket" + name, reconnect ? socket : socket.endWhenClosed())
            .apply("Parse" + name, ParseEvents.with(format));
      default:
        return pipeline
            .apply(
                "ReadKafka" + name,
                KafkaIO.<String, String>read()
                    .withBootstrapServers(host + ":" + port)
                    .withTopic(topic)
                    .withKeyDeserializer(StringDeserializer.class)
                    .withValueDeserializer(StringDeserializer.class)
                    .withConsumerConfigUpdates(
                        Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, startFrom(startFrom)))
                    .withTimestampPolicyFactory(
                        IdleAwareTimestampPolicyFactory.<String, String>byEventTime(
                                record -> eventTimeOf(format, record.getKV().getValue()))
                            .withMaxOutOfOrderness(maxOutOfOrderness)
                            .withIdleTimeout(idleTimeout))
                    .withoutMetadata())
            .apply("Values" + name, Values.create())
            .apply("Parse" + name, ParseEvents.with(format));
    }
  }

  @Override
  public String toString() {
    return uri;
  }

  private static Instant eventTimeOf(EventFormat format, String value) {
    return value == null ? null : format.eventTimes().apply(value);
  }

  private String startFrom(String startFrom) {
    String value = startFrom == null ? "" : startFrom.trim().toLowerCase(Locale.ROOT);
    if (!value.equals("earliest") && !value.equals("latest")) {
      throw new ConfigurationException(
          "--startFrom: '" + startFrom + "' is not a start position; use earliest or latest");
    }
    return value;
  }

  private static SourceUri socket(String option, String value) {
    SourceUri source = new SourceUri(option, value, Kind.SOCKET);
    String rest = value.substring("socket://".length());
    int query = rest.indexOf('?');
    if (query >= 0) {
      String parameter = rest.substring(query + 1);
      if (!parameter.equals("reconnect=false") && !parameter.equals("reconnect=true")) {
        throw new ConfigurationException(
            "--" + option + ": '" + parameter + "' is not a socket option; use reconnect=false");
      }
      source.reconnect = parameter.equals("reconnect=true");
      rest = rest.substring(0, query);
    }
    source.hostAndPort(rest, "socket://HOST:PORT");
    return source;
  }

  private static SourceUri kafka(String option, String value) {
    SourceUri source = new SourceUri(option, value, Kind.KAFKA);
    String rest = value.substring("kafka://".length());
    int slash = rest.indexOf('/');
    if (slash < 0 || slash == rest.length() - 1) {
      throw new ConfigurationException(
          "--" + option + ": '" + value + "' names no topic; use kafka://HOST:PORT/TOPIC");
    }
    source.topic = rest.substring(slash + 1);
    source.hostAndPort(rest.substring(0, slash), "kafka://HOST:PORT/TOPIC");
    return source;
  }

  private void hostAndPort(String text, String form) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0) {
      throw new ConfigurationException(
          "--" + option + ": '" + uri + "' has no HOST:PORT; use " + form);
    }
    host = text.substring(0, colon);
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65_535) {
      throw new ConfigurationException(
          "--"
              + option
              + ": '"
              + text.substring(colon + 1)
              + "' is not a TCP port; use a number from 1 to 65535");
    }
  }

  private static SourceUri generator(String option, String value) {
    SourceUri source = new SourceUri(option, value, Kind.RECORDED);
    Map<String, String> parameters = new LinkedHashMap<>();
    String rest = value.substring("generator:".length());
    if (!rest.isEmpty()) {
      for (String pair : rest.split(",")) {
        String[] keyValue = pair.split("=", 2);
        if (keyValue.length != 2) {
          throw new ConfigurationException(
              "--" + option + ": '" + pair + "' is not NAME=VALUE in " + value);
        }
        parameters.put(keyValue[0].trim(), keyValue[1].trim());
      }
    }
    try {
      GeneratedLines lines =
          GeneratedLines.records(Long.parseLong(parameters.getOrDefault("records", "10000")));
      for (Map.Entry<String, String> parameter : parameters.entrySet()) {
        String text = parameter.getValue();
        switch (parameter.getKey()) {
          case "records":
            break;
          case "keys":
            lines = lines.withKeys(Integer.parseInt(text));
            break;
          case "outOfOrderness":
            lines = lines.withOutOfOrderness(Durations.parse("source outOfOrderness", text));
            break;
          case "late":
            lines = lines.withLateFraction(Double.parseDouble(text));
            break;
          case "bad":
            lines = lines.withBadFraction(Double.parseDouble(text));
            break;
          case "seed":
            lines = lines.withSeed(Long.parseLong(text));
            break;
          case "rate":
            source.rate = Double.parseDouble(text);
            if (!(source.rate >= 0)) {
              throw new NumberFormatException();
            }
            break;
          default:
            throw new ConfigurationException(
                "--"
                    + option
                    + ": '"
                    + parameter.getKey()
                    + "' is not a generator setting; use records, keys, outOfOrderness, late,"
                    + " bad, rate or seed");
        }
      }
      source.recorded = lines;
    } catch (NumberFormatException e) {
      throw new ConfigurationException(
          "--" + option + ": a generator setting in '" + value + "' is not a number");
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("--" + option + ": " + e.getMessage());
    }
    return source;
  }
}
