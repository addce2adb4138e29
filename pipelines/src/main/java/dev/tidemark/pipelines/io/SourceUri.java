package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.Durations;
import dev.tidemark.pipelines.config.KafkaClientProperties;
import dev.tidemark.pipelines.config.RecordLimits;
import dev.tidemark.pipelines.config.SourceOptions;
import dev.tidemark.transforms.io.FileLines;
import dev.tidemark.transforms.io.GeneratedLines;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses a {@code --source} URI into a {@link Source}, checking it before the job starts: {@code
 * file:PATH}, {@code generator:NAME=VALUE,...} and {@code sample:} are recordings; {@code
 * socket://HOST:PORT} and {@code kafka://HOST:PORT/TOPIC} are live.
 */
public final class SourceUri {

  private static final String FORMS =
      "use file:PATH, socket://HOST:PORT, kafka://HOST:PORT/TOPIC, generator: or sample:";

  private SourceUri() {}

  /**
   * The source {@code --source} names, as a pipeline that reads {@code input} reads it, with the
   * record limit and Kafka client properties of {@code options}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  public static Source of(SourceOptions options, PipelineInput input) {
    return parse(
        "source",
        options.getSource(),
        input,
        RecordLimits.maxRecordBytes(options),
        KafkaClientProperties.from(options));
  }

  /**
   * Parses {@code uri}, the value of {@code --option}; a file's or a socket's line or a Kafka value
   * longer than {@code maxRecordBytes} is to be a dead letter; a Kafka source's consumers get
   * {@code kafkaProperties}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  public static Source parse(
      String option,
      String uri,
      PipelineInput input,
      int maxRecordBytes,
      Map<String, String> kafkaProperties) {
    String value = uri == null ? "" : uri.trim();
    if (value.startsWith("file:")) {
      FileLines files =
          FileLines.matching(value.substring("file:".length())).withMaxLineBytes(maxRecordBytes);
      try {
        files.files();
      } catch (IOException e) {
        throw new ConfigurationException("--" + option + ": " + e.getMessage());
      }
      return new RecordedSource(files, 0);
    }
    if (value.startsWith("sample:")) {
      return sample(option, value.substring("sample:".length()), input);
    }
    if (value.startsWith("generator:")) {
      return generator(option, value, input);
    }
    if (value.startsWith("socket://")) {
      return socket(option, value, maxRecordBytes);
    }
    if (value.startsWith("kafka://")) {
      KafkaAddress address = KafkaAddress.parse(option, value);
      return new KafkaSource(
          address.bootstrapServers(), address.topic(), maxRecordBytes, kafkaProperties);
    }
    throw new ConfigurationException("--" + option + ": '" + uri + "' is not a source; " + FORMS);
  }

  private static Source socket(String option, String value, int maxRecordBytes) {
    String rest = value.substring("socket://".length());
    boolean reconnect = true;
    int query = rest.indexOf('?');
    if (query >= 0) {
      String parameter = rest.substring(query + 1);
      if (!parameter.equals("reconnect=false") && !parameter.equals("reconnect=true")) {
        throw new ConfigurationException(
            "--" + option + ": '" + parameter + "' is not a socket option; use reconnect=false");
      }
      reconnect = parameter.equals("reconnect=true");
      rest = rest.substring(0, query);
    }
    String hostAndPort = hostAndPort(option, value, rest, "socket://HOST:PORT");
    int colon = hostAndPort.lastIndexOf(':');
    return new SocketSource(
        hostAndPort.substring(0, colon),
        Integer.parseInt(hostAndPort.substring(colon + 1)),
        reconnect,
        maxRecordBytes);
  }

  /** Checks {@code HOST:PORT} and returns it. */
  static String hostAndPort(String option, String uri, String text, String form) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0) {
      throw new ConfigurationException(
          "--" + option + ": '" + uri + "' has no HOST:PORT; use " + form);
    }
    int port;
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
    return text;
  }

  private static Source sample(String option, String name, PipelineInput input) {
    String sample = name.isEmpty() ? input.sample() : name;
    if (!PipelineInput.samples().contains(sample)) {
      throw new ConfigurationException(
          "--"
              + option
              + ": '"
              + sample
              + "' is not a bundled sample; use sample: or sample:NAME with NAME one of "
              + String.join(", ", PipelineInput.samples()));
    }
    return new RecordedSource(new ResourceLines("/samples/" + sample), 0);
  }

  private static Source generator(String option, String value, PipelineInput input) {
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
          GeneratedLines.records(Long.parseLong(parameters.getOrDefault("records", "10000")))
              .withShape(input.generated());
      double rate = 0;
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
            rate = Double.parseDouble(text);
            if (!(rate >= 0)) {
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
      return new RecordedSource(lines, rate);
    } catch (NumberFormatException e) {
      throw new ConfigurationException(
          "--" + option + ": a generator setting in '" + value + "' is not a number");
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("--" + option + ": " + e.getMessage());
    }
  }
}
