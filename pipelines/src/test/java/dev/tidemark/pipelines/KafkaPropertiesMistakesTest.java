package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A mistake in {@code --kafkaProperties} fails before the job starts, by Kafka's own rules: exit
 * code 2 and one line naming the setting and the fix, never a client's stack trace, never silence.
 * No broker is needed: the file is checked before any client is made.
 */
class KafkaPropertiesMistakesTest {

  @TempDir Path directory;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a value the setting does not take | security.protocol=SASL_SSLL | 'security.protocol' in FILE: Invalid value SASL_SSLL for configuration security.protocol: String must be one of (case insensitive): SASL_SSL, PLAINTEXT, SSL, SASL_PLAINTEXT",
        "a value of the wrong type | request.timeout.ms=soon | 'request.timeout.ms' in FILE: Invalid value soon for configuration request.timeout.ms: Not a number of type INT",
        "a setting no client has, near one | sasl.mechanisms=PLAIN | 'sasl.mechanisms' in FILE is not a setting of Kafka's clients; did you mean 'sasl.mechanism'?",
        "a setting no client has | foo.bar.baz=1 | 'foo.bar.baz' in FILE is not a setting of Kafka's clients; see Kafka's consumer and producer configs",
        "a setting tidemark makes | enable.idempotence=false | 'enable.idempotence' in FILE is tidemark's: the exactly-once sinks write with an idempotent producer; leave it out",
        "a setting from the command line | auto.offset.reset=earliest | 'auto.offset.reset' in FILE comes from --startFrom; leave it out",
        "SASL without a login | security.protocol=SASL_SSL | security.protocol=SASL_SSL in FILE needs a login: add sasl.jaas.config, e.g. sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"USER\" password=\"PASSWORD\";",
      })
  void failsBeforeTheJobStartsWithOneLine(String name, String setting, String expected)
      throws Exception {
    Path file = directory.resolve("client.properties");
    Files.writeString(file, setting.trim() + System.lineSeparator());

    CommandLine run =
        CommandLine.run(
            "metrics", "--source=kafka://127.0.0.1:9/stats", "--kafkaProperties=" + file);

    assertThat(run.exitCode, equalTo(2));
    assertThat(
        run.err,
        equalTo(
            "tidemark: --kafkaProperties: "
                + expected.trim().replace("FILE", file.toString())
                + System.lineSeparator()));
    assertThat(run.out, equalTo(""));
  }
}
