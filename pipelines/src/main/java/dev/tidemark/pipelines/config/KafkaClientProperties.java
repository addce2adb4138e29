package dev.tidemark.pipelines.config;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * {@code --kafkaProperties=PATH}: a Kafka client properties file, as Kafka's own tools take with
 * {@code --command-config}, whose settings every Kafka client of the run gets (the sources'
 * consumers, the sinks' producers and the check that a topic exists): security ({@code
 * security.protocol}, {@code sasl.*}, {@code ssl.*}), {@code group.id}, {@code client.id} and the
 * like.
 *
 * <p>Each setting is checked before the job starts by Kafka's own rules, the {@code ConfigDef}s of
 * its consumer, producer and admin client: a name none of them knows (with the nearest one that
 * does), a value of the wrong type or outside what the setting takes. So are the settings tidemark
 * makes itself, with where they come from, and a SASL protocol without a JAAS login. Each mistake
 * is one line, naming the setting and the fix.
 */
public final class KafkaClientProperties {

  /** Settings that tidemark makes itself, and why. */
  private static final Map<String, String> TIDEMARK_SETS =
      Map.ofEntries(
          Map.entry("bootstrap.servers", "comes from the kafka://HOST:PORT/TOPIC address"),
          Map.entry("auto.offset.reset", "comes from --startFrom"),
          Map.entry("key.deserializer", "is tidemark's: records are read as bytes"),
          Map.entry("value.deserializer", "is tidemark's: records are read as bytes"),
          Map.entry("key.serializer", "is tidemark's: results are written as text"),
          Map.entry("value.serializer", "is tidemark's: results are written as text"),
          Map.entry(
              "enable.idempotence",
              "is tidemark's: the exactly-once sinks write with an idempotent producer"),
          Map.entry(
              "transactional.id",
              "is tidemark's: each writer of an exactly-once sink has its own,"
                  + " tidemark-TOPIC-OUTPUT-N"));

  private KafkaClientProperties() {}

  /**
   * The settings of {@code --kafkaProperties}, empty without it.
   *
   * @throws ConfigurationException if the file cannot be read, or a setting is not one Kafka's
   *     clients take, or is one tidemark makes itself
   */
  public static Map<String, String> from(TidemarkOptions options) {
    String path = options.getKafkaProperties();
    if (path == null) {
      return Map.of();
    }
    Map<String, String> settings = PropertiesFile.read("kafkaProperties", path);
    settings.forEach((name, value) -> check(path, name, value));
    requireJaasForSasl(path, settings);
    return settings;
  }

  private static void check(String path, String name, String value) {
    String inFile = "--kafkaProperties: '" + name + "' in " + path;
    String tidemarks = TIDEMARK_SETS.get(name);
    if (tidemarks != null) {
      throw new ConfigurationException(inFile + " " + tidemarks + "; leave it out");
    }
    ConfigDef.ConfigKey setting = KafkaSettings.ALL.get(name);
    if (setting == null) {
      String meant = NearestName.among(KafkaSettings.ALL.keySet(), name);
      throw new ConfigurationException(
          inFile
              + " is not a setting of Kafka's clients"
              + (meant == null
                  ? "; see Kafka's consumer and producer configs"
                  : "; did you mean '" + meant + "'?"));
    }
    try {
      Object parsed = ConfigDef.parseType(name, value, setting.type);
      if (setting.validator != null) {
        setting.validator.ensureValid(name, parsed);
      }
    } catch (ConfigException e) {
      throw new ConfigurationException(inFile + ": " + oneLine(e.getMessage()));
    }
  }

  /**
   * A SASL protocol logs in through JAAS: without {@code sasl.jaas.config} or a JVM-wide JAAS file
   * the client fails deep in its start, with a long trace, on whichever machine runs the task.
   */
  private static void requireJaasForSasl(String path, Map<String, String> settings) {
    String protocol = settings.getOrDefault("security.protocol", "");
    if (protocol.toUpperCase(Locale.ROOT).startsWith("SASL_")
        && !settings.containsKey("sasl.jaas.config")
        && System.getProperty("java.security.auth.login.config") == null) {
      throw new ConfigurationException(
          "--kafkaProperties: security.protocol="
              + protocol
              + " in "
              + path
              + " needs a login: add sasl.jaas.config, e.g. sasl.jaas.config="
              + "org.apache.kafka.common.security.plain.PlainLoginModule required"
              + " username=\"USER\" password=\"PASSWORD\";");
    }
  }

  private static String oneLine(String message) {
    return message.replaceAll("\\s*\\R\\s*", " ").trim();
  }

  /**
   * Every setting Kafka's clients define, by name, from their own definitions; loaded only when a
   * file is checked.
   */
  private static final class KafkaSettings {
    static final Map<String, ConfigDef.ConfigKey> ALL = new TreeMap<>();

    static {
      ALL.putAll(AdminClientConfig.configDef().configKeys());
      ALL.putAll(ProducerConfig.configDef().configKeys());
      ALL.putAll(ConsumerConfig.configDef().configKeys());
    }
  }
}
