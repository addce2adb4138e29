package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kafkaProperties}: what it reads, and what it refuses. */
class KafkaClientPropertiesTest {

  @TempDir Path directory;

  private static Map<String, String> read(String... args) {
    return KafkaClientProperties.from(
        PipelineOptionsFactory.fromArgs(args).as(TidemarkOptions.class));
  }

  @Test
  void aClientPropertiesFileGivesEverySettingInIt() throws Exception {
    Path file = directory.resolve("client.properties");
    Files.write(
        file,
        List.of(
            "# as Kafka's own tools take it",
            "security.protocol=SASL_SSL",
            "sasl.mechanism=PLAIN",
            "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"u\" password=\"p\";",
            "group.id=tidemark"));
    Map<String, String> settings = read("--kafkaProperties=" + file);
    assertThat(settings.size(), equalTo(4));
    assertThat(settings.get("security.protocol"), equalTo("SASL_SSL"));
    assertThat(
        settings.get("sasl.jaas.config"),
        equalTo(
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\""
                + " password=\"p\";"));
    assertThat(read(), equalTo(Map.of()));
  }

  @Test
  void aSettingTidemarkMakesItselfIsRefusedWithWhereItComesFrom() throws Exception {
    Path file = directory.resolve("bootstrap.properties");
    Files.write(file, List.of("bootstrap.servers=elsewhere:9092"));
    ConfigurationException refused =
        assertThrows(ConfigurationException.class, () -> read("--kafkaProperties=" + file));
    assertThat(
        refused.getMessage(),
        equalTo(
            "--kafkaProperties: 'bootstrap.servers' in "
                + file
                + " comes from the kafka://HOST:PORT/TOPIC address; leave it out"));
  }

  @Test
  void aFileThatCannotBeReadIsRefused() {
    Path missing = directory.resolve("missing.properties");
    ConfigurationException refused =
        assertThrows(ConfigurationException.class, () -> read("--kafkaProperties=" + missing));
    assertThat(
        refused.getMessage(), equalTo("--kafkaProperties: there is no file '" + missing + "'"));
  }
}
