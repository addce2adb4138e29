package dev.tidemark.pipelines;

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
final class SourceUri {

  private static final String FORMS =
      "use file:PATH, socket://HOST:PORT, kafka://HOST:PORT/TOPIC, generator: or sample:";

  private SourceUri() {}

  /**
   * Parses {@code uri}, the value of {@code --option}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  static Source parse(String option, String uri) {
    String value = uri == null ? "" : uri.trim();
    if (value.startsWith("file:")) {
      FileLines files = FileLines.matching(value.substring("file:".length()));
      try {
        files.files();
      } catch (IOException e) {
        throw new ConfigurationException("--" + option + ": " + e.getMessage());
      }
      return new RecordedSource(files, 0);
    }
    if (value.equals("sample:")) {
      return new RecordedSource(new ResourceLines("/samples/count.csv"), 0);
    }
    if (value.startsWith("generator:")) {
      return generator(option, value);
    }
    if (value.startsWith("socket://")) {
      return socket(option, value);
    }
    if (value.startsWith("kafka://")) {
      String rest = value.substring("kafka://".length());
      int slash = rest.indexOf('/');
      if (slash < 0 || slash == rest.length() - 1) {
        throw new ConfigurationException(
            "--" + option + ": '" + value + "' names no topic; use kafka://HOST:PORT/TOPIC");
      }
      return new KafkaSource(
          hostAndPort(option, value, rest.substring(0, slash), "kafka://HOST:PORT/TOPIC"),
          rest.substring(slash + 1));
    }
    throw new ConfigurationException("--" + option + ": '" + uri + "' is not a source; " + FORMS);
  }

  private static Source socket(String option, String value) {
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
        reconnect);
  }

  /** Checks {@code HOST:PORT} and returns it. */
  private static String hostAndPort(String option, String uri, String text, String form) {
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

  private static Source generator(String option, String value) {
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
